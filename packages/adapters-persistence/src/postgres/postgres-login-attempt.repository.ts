import { and, count, eq, gte, is, lt, min, Placeholder, sql } from 'drizzle-orm';
import type { FailureStats, LoginAttemptRepository } from '@uas/domain';
import { failuresOf } from '../shared/conditions';
import type { PostgresDb } from './postgres-db';
import { loginFailures } from './postgres-schema';

/**
 * Failures per key: a range of the (key, at) index per key. The keys are one array parameter, so
 * one prepared statement serves any number of them. Exported for the query plan tests.
 */
export const selectFailureCounts = (db: PostgresDb, keys: readonly string[] | Placeholder, since: Date | Placeholder) =>
  db
    .select({ key: loginFailures.key, count: count() })
    .from(loginFailures)
    .where(
      and(
        sql`${loginFailures.key} = any(${is(keys, Placeholder) ? keys : sql.param(keys)}::text[])`,
        gte(loginFailures.at, since),
      ),
    )
    .groupBy(loginFailures.key);

export class PostgresLoginAttemptRepository implements LoginAttemptRepository {
  /** Prepared once: every list of users counts its page's failures. */
  private readonly counts;

  constructor(private readonly db: PostgresDb) {
    this.counts = selectFailureCounts(db, sql.placeholder('keys'), sql.placeholder('since')).prepare('failure_counts');
  }

  async record(id: string, keys: readonly string[], at: Date): Promise<void> {
    if (keys.length === 0) return;
    await this.db.insert(loginFailures).values(keys.map((key) => ({ attempt: id, key, at })));
  }

  async withdraw(id: string): Promise<void> {
    await this.db.delete(loginFailures).where(eq(loginFailures.attempt, id));
  }

  async failuresSince(key: string, since: Date): Promise<FailureStats> {
    const [stats] = await this.db
      .select({ count: count(), oldest: min(loginFailures.at) })
      .from(loginFailures)
      .where(failuresOf(loginFailures, key, since));
    return stats ?? { count: 0, oldest: null };
  }

  async failureCounts(keys: readonly string[], since: Date): Promise<Map<string, number>> {
    // A placeholder's value reaches the driver as it is: the timestamp goes as the column writes it.
    const rows = await this.counts.execute({ keys, since: since.toISOString() });
    return new Map(rows.map((row) => [row.key, row.count]));
  }

  async clear(key: string): Promise<void> {
    await this.db.delete(loginFailures).where(eq(loginFailures.key, key));
  }

  async prune(before: Date): Promise<void> {
    await this.db.delete(loginFailures).where(lt(loginFailures.at, before));
  }
}
