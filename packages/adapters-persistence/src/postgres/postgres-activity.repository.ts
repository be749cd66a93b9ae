import { and, asc, eq, gte, lte, sql } from 'drizzle-orm';
import { dayOf, type ActivityRepository, type Day, type DayActivity, type UserTotals } from '@uas/domain';
import type { PostgresDb, PostgresTx } from './postgres-db';
import { dailyActivity, userCount } from './postgres-schema';

/** Adds one to a count of the day of `at`, in the caller's transaction when `db` is one. */
export async function countOnDay(db: PostgresDb | PostgresTx, at: Date, what: 'logins' | 'failedLogins') {
  await db
    .insert(dailyActivity)
    .values({ day: dayOf(at), [what]: 1 })
    .onConflictDoUpdate({ target: dailyActivity.day, set: { [what]: sql`${dailyActivity[what]} + 1` } });
}

/** Exported for the query plan tests: one row of the counter, a range of the days' primary key. */
export const selectUserTotals = (db: PostgresDb) =>
  db.select({ total: userCount.users, active: userCount.active }).from(userCount).where(eq(userCount.id, 1));
export const selectDays = (db: PostgresDb, first: Day, last: Day) =>
  db
    .select()
    .from(dailyActivity)
    .where(and(gte(dailyActivity.day, first), lte(dailyActivity.day, last)))
    .orderBy(asc(dailyActivity.day));

export class PostgresActivityRepository implements ActivityRepository {
  constructor(private readonly db: PostgresDb) {}

  async userTotals(): Promise<UserTotals> {
    const [totals] = await selectUserTotals(this.db);
    return totals ?? { total: 0, active: 0 };
  }

  async days(first: Day, last: Day): Promise<DayActivity[]> {
    return selectDays(this.db, first, last);
  }

  async countFailedLogin(at: Date): Promise<void> {
    await countOnDay(this.db, at, 'failedLogins');
  }
}
