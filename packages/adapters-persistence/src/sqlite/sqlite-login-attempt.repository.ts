import { count, eq, lt, min } from 'drizzle-orm';
import type { FailureStats, LoginAttemptRepository } from '@uas/domain';
import { failuresOf } from '../shared/conditions';
import type { SqliteDb } from './sqlite-db';
import { loginFailures } from './sqlite-schema';

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

  async clear(key: string): Promise<void> {
    this.db.delete(loginFailures).where(eq(loginFailures.key, key)).run();
  }

  async prune(before: Date): Promise<void> {
    this.db.delete(loginFailures).where(lt(loginFailures.at, before)).run();
  }
}
