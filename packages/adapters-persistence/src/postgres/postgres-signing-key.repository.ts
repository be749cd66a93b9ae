import { and, desc, gt, isNull, ne, or } from 'drizzle-orm';
import type { SigningKey, SigningKeyRepository } from '@uas/domain';
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
      .where(or(isNull(signingKeys.retires), gt(signingKeys.retires, now)))
      .orderBy(desc(signingKeys.created), desc(signingKeys.kid));
  }

  async retireOthers(kid: string, retires: Date): Promise<void> {
    await this.db
      .update(signingKeys)
      .set({ retires })
      .where(and(ne(signingKeys.kid, kid), isNull(signingKeys.retires)));
  }
}
