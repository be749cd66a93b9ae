import { count, eq, lt, min } from 'drizzle-orm';
import type { FailureStats, LoginAttemptRepository } from '@uas/domain';
import { failuresOf } from '../shared/conditions';
import type { PostgresDb } from './postgres-db';
import { loginFailures } from './postgres-schema';

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

  async clear(key: string): Promise<void> {
    await this.db.delete(loginFailures).where(eq(loginFailures.key, key));
  }

  async prune(before: Date): Promise<void> {
    await this.db.delete(loginFailures).where(lt(loginFailures.at, before));
  }
}
