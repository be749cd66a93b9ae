import { count, eq, lt, min } from 'drizzle-orm';
import type { FailureStats, LoginAttemptRepository } from '@uas/domain';
import { failuresOf, failuresOfKeys } from '../shared/conditions';
import type { PostgresDb } from './postgres-db';
import { loginFailures } from './postgres-schema';

/** Failures per key: a range of the (key, at) index per key. Exported for the query plan tests. */
export const selectFailureCounts = (db: PostgresDb, keys: readonly string[], since: Date) =>
  db
    .select({ key: loginFailures.key, count: count() })
    .from(loginFailures)
    .where(failuresOfKeys(loginFailures, keys, since))
    .groupBy(loginFailures.key);

export class PostgresLoginAttemptRepository implements LoginAttemptRepository {
  constructor(private readonly db: PostgresDb) {}

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
    const rows = await selectFailureCounts(this.db, keys, since);
    return new Map(rows.map((row) => [row.key, row.count]));
  }

  async clear(key: string): Promise<void> {
    await this.db.delete(loginFailures).where(eq(loginFailures.key, key));
  }

  async prune(before: Date): Promise<void> {
    await this.db.delete(loginFailures).where(lt(loginFailures.at, before));
  }
}
