import { and, asc, eq, gte, lte, sql } from 'drizzle-orm';
import { dayOf, type ActivityRepository, type Day, type DayActivity, type UserTotals } from '@uas/domain';
import type { SqliteDb } from './sqlite-db';
import { dailyActivity, userCount } from './sqlite-schema';

/**
 * The statement that adds one to the count `what` of the day `day` (a placeholder), in the
 * caller's transaction when `db` is one: prepared where every request counts.
 */
export function dayCount(db: SqliteDb, what: 'logins' | 'failedLogins') {
  return db
    .insert(dailyActivity)
    .values({ day: sql.placeholder('day'), [what]: 1 })
    .onConflictDoUpdate({ target: dailyActivity.day, set: { [what]: sql`${dailyActivity[what]} + 1` } });
}

/** Exported for the query plan tests: one row of the counter, a range of the days' primary key. */
export const selectUserTotals = (db: SqliteDb) =>
  db.select({ total: userCount.users, active: userCount.active }).from(userCount).where(eq(userCount.id, 1));
export const selectDays = (db: SqliteDb, first: Day, last: Day) =>
  db
    .select()
    .from(dailyActivity)
    .where(and(gte(dailyActivity.day, first), lte(dailyActivity.day, last)))
    .orderBy(asc(dailyActivity.day));

export class SqliteActivityRepository implements ActivityRepository {
  constructor(private readonly db: SqliteDb) {}

  async userTotals(): Promise<UserTotals> {
    return selectUserTotals(this.db).get() ?? { total: 0, active: 0 };
  }

  async days(first: Day, last: Day): Promise<DayActivity[]> {
    return selectDays(this.db, first, last).all();
  }

  async countFailedLogin(at: Date): Promise<void> {
    dayCount(this.db, 'failedLogins').run({ day: dayOf(at) });
  }
}
