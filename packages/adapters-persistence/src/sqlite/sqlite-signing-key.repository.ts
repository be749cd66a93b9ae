import { desc } from 'drizzle-orm';
import type { SigningKey, SigningKeyRepository } from '@uas/domain';
import { othersUndated, usableAt } from '../shared/conditions';
import type { SqliteDb } from './sqlite-db';
import { signingKeys } from './sqlite-schema';

export class SqliteSigningKeyRepository implements SigningKeyRepository {
  constructor(private readonly db: SqliteDb) {}

  async insert(key: SigningKey): Promise<void> {
    this.db.insert(signingKeys).values(key).run();
  }

  async listUsable(now: Date): Promise<SigningKey[]> {
    return this.db
      .select()
      .from(signingKeys)
      .where(usableAt(signingKeys, now))
      .orderBy(desc(signingKeys.created), desc(signingKeys.kid))
      .all();
  }

  async retireOthers(kid: string, retires: Date): Promise<void> {
    this.db.update(signingKeys).set({ retires }).where(othersUndated(signingKeys, kid)).run();
  }
}
