import { desc } from 'drizzle-orm';
import type { AuditRecord, SigningKey, SigningKeyRepository } from '@uas/domain';
import { activatingAfter, othersUndated, usableAt } from '../shared/conditions';
import { appendAuditEvent } from './postgres-audit-trail';
import type { PostgresDb } from './postgres-db';
import { signingKeys } from './postgres-schema';

export class PostgresSigningKeyRepository implements SigningKeyRepository {
  constructor(private readonly db: PostgresDb) {}

  async rotate(key: SigningKey, retireOthers: Date, audit?: AuditRecord): Promise<void> {
    await this.db.transaction(async (tx) => {
      await tx.delete(signingKeys).where(activatingAfter(signingKeys, key.activates));
      await tx.insert(signingKeys).values(key);
      await tx.update(signingKeys).set({ retires: retireOthers }).where(othersUndated(signingKeys, key.kid));
      if (audit) await appendAuditEvent(tx, audit);
    });
  }

  async listUsable(now: Date): Promise<SigningKey[]> {
    return this.db
      .select()
      .from(signingKeys)
      .where(usableAt(signingKeys, now))
      .orderBy(desc(signingKeys.created), desc(signingKeys.kid));
  }
}
