import { desc } from 'drizzle-orm';
import type { AuditRecord, SigningKey, SigningKeyRepository } from '@uas/domain';
import { activatingAfter, othersUndated, usableAt } from '../shared/conditions';
import { takeTurns } from './postgres-advisory-lock';
import { appendAuditEvent } from './postgres-audit-trail';
import type { PostgresDb } from './postgres-db';
import { signingKeys } from './postgres-schema';

/**
 * Held by each rotation until it commits: without it, two concurrent rotations would each date
 * only the keys committed before it, and both new keys would stay undated (published for good).
 */
const ROTATION_LOCK = 'uas:signing-key-rotation';

export class PostgresSigningKeyRepository implements SigningKeyRepository {
  constructor(private readonly db: PostgresDb) {}

  async rotate(key: SigningKey, retireOthers: Date, audit?: AuditRecord): Promise<void> {
    await this.db.transaction(async (tx) => {
      await takeTurns(tx, ROTATION_LOCK);
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
