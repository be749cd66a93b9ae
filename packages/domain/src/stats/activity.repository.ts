import { token } from '../shared/token.ts';
import type { Day, DayActivity, UserTotals } from './activity.ts';

/**
 * Counters kept by the writes themselves, so the overview reads a few rows whatever the number of
 * users: the user totals change in the transaction of every insert, delete and change of `active`,
 * a day's sign-ups with each insert (on the day of the user's `created`), its logins as each end
 * user's session opens (SessionRepository.create). Failed logins are counted here.
 */
export interface ActivityRepository {
  userTotals(): Promise<UserTotals>;
  /** The days from `first` to `last` (inclusive) that have any activity, oldest first. */
  days(first: Day, last: Day): Promise<DayActivity[]>;
  /** Adds one to the failed logins of the day of `at`. */
  countFailedLogin(at: Date): Promise<void>;
}
export const ActivityRepository = token<ActivityRepository>('ActivityRepository');
