/** A UTC calendar day, `YYYY-MM-DD`: the unit the overview counts in. */
export type Day = string;

export const dayOf = (time: Date): Day => time.toISOString().slice(0, 10);

/** What happened on one day: users created, and end users' successful and failed logins. */
export interface DayActivity {
  readonly day: Day;
  readonly signups: number;
  readonly logins: number;
  readonly failedLogins: number;
}

export interface UserTotals {
  readonly total: number;
  readonly active: number;
}

/** What the panel's overview shows. */
export interface Overview {
  readonly users: UserTotals & { readonly deactivated: number };
  /** One entry per day, oldest first, the days with nothing included. */
  readonly days: readonly DayActivity[];
}

/** The `count` days that end with `last`, oldest first. */
export function daysEndingOn(last: Day, count: number): Day[] {
  const end = Date.parse(`${last}T00:00:00.000Z`);
  return Array.from({ length: count }, (_, index) => dayOf(new Date(end - (count - 1 - index) * 86_400_000)));
}
