import type { Clock } from '../shared/clock.ts';
import { dayOf, daysEndingOn, type Overview } from './activity.ts';
import type { ActivityRepository } from './activity.repository.ts';

/** How many days the overview draws, today included. */
export const OVERVIEW_DAYS = 30;

export interface OverviewServiceDeps {
  activity: ActivityRepository;
  clock: Clock;
}

/** The panel's landing page: user totals and the last 30 days' activity, from counters only. */
export class OverviewService {
  constructor(private readonly deps: OverviewServiceDeps) {}

  async overview(): Promise<Overview> {
    const { activity, clock } = this.deps;
    const days = daysEndingOn(dayOf(clock.now()), OVERVIEW_DAYS);
    const [totals, counted] = await Promise.all([activity.userTotals(), activity.days(days[0]!, days.at(-1)!)]);
    const byDay = new Map(counted.map((entry) => [entry.day, entry]));
    return {
      users: { ...totals, deactivated: totals.total - totals.active },
      days: days.map((day) => byDay.get(day) ?? { day, signups: 0, logins: 0, failedLogins: 0 }),
    };
  }
}
