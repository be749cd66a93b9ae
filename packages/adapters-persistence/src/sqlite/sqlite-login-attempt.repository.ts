import { count, eq, lt, min } from 'drizzle-orm';
import type { FailureStats, LoginAttemptRepository } from '@uas/domain';
import { failuresOf, failuresOfKeys } from '../shared/conditions';
import type { SqliteDb } from './sqlite-db';
import { loginFailures } from './sqlite-schema';

/** Failures per key: a range of the (key, at) index per key. Exported for the query plan tests. */
export const selectFailureCounts = (db: SqliteDb, keys: readonly string[], since: Date) =>
  db
    .select({ key: loginFailures.key, count: count() })
    .from(loginFailures)
    .where(failuresOfKeys(loginFailures, keys, since))
    .groupBy(loginFailures.key);

export class SqliteLoginAttemptRepository implements LoginAttemptRepository {
  constructor(private readonly db: SqliteDb) {}

  async record(id: string, keys: readonly string[], at: Date): Promise<void> {
    if (keys.length === 0) return;
    this.db
      .insert(loginFailures)
      .values(keys.map((key) => ({ attempt: id, key, at })))
      .run();
  }

  async withdraw(id: string): Promise<void> {
    this.db.delete(loginFailures).where(eq(loginFailures.attempt, id)).run();
  }

  async failuresSince(key: string, since: Date): Promise<FailureStats> {
    const stats = this.db
      .select({ count: count(), oldest: min(loginFailures.at) })
      .from(loginFailures)
      .where(failuresOf(loginFailures, key, since))
      .get();
    return stats ?? { count: 0, oldest: null };
  }

  async failureCounts(keys: readonly string[], since: Date): Promise<Map<string, number>> {
    const rows = selectFailureCounts(this.db, keys, since).all();
    return new Map(rows.map((row) => [row.key, row.count]));
  }

  async clear(key: string): Promise<void> {
    this.db.delete(loginFailures).where(eq(loginFailures.key, key)).run();
  }

  async prune(before: Date): Promise<void> {
    this.db.delete(loginFailures).where(lt(loginFailures.at, before)).run();
  }
}
