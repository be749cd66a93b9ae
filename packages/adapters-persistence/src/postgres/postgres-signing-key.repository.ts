import { desc } from 'drizzle-orm';
import type { SigningKey, SigningKeyRepository } from '@uas/domain';
import { othersUndated, usableAt } from '../shared/conditions';
import type { PostgresDb } from './postgres-db';
import { signingKeys } from './postgres-schema';

export class PostgresSigningKeyRepository implements SigningKeyRepository {
  constructor(private readonly db: PostgresDb) {}

  async insert(key: SigningKey): Promise<void> {
    await this.db.insert(signingKeys).values(key);
  }

  async listUsable(now: Date): Promise<SigningKey[]> {
    return this.db
      .select()
      .from(signingKeys)
      .where(usableAt(signingKeys, now))
      .orderBy(desc(signingKeys.created), desc(signingKeys.kid));
  }

  async retireOthers(kid: string, retires: Date): Promise<void> {
    await this.db.update(signingKeys).set({ retires }).where(othersUndated(signingKeys, kid));
  }
}
