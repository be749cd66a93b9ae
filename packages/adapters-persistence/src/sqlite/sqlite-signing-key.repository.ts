import { and, desc, gt, isNull, ne, or } from 'drizzle-orm';
import type { SigningKey, SigningKeyRepository } from '@uas/domain';
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
      .where(or(isNull(signingKeys.retires), gt(signingKeys.retires, now)))
      .orderBy(desc(signingKeys.created), desc(signingKeys.kid))
      .all();
  }

  async retireOthers(kid: string, retires: Date): Promise<void> {
    this.db
      .update(signingKeys)
      .set({ retires })
      .where(and(ne(signingKeys.kid, kid), isNull(signingKeys.retires)))
      .run();
  }
}
