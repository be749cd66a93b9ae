import { desc } from 'drizzle-orm';
import type { AuditRecord, SigningKey, SigningKeyRepository } from '@uas/domain';
import { activatingAfter, othersUndated, usableAt } from '../shared/conditions';
import { appendAuditEvent } from './sqlite-audit-trail';
import type { SqliteDb } from './sqlite-db';
import { signingKeys } from './sqlite-schema';

export class SqliteSigningKeyRepository implements SigningKeyRepository {
  constructor(private readonly db: SqliteDb) {}

  async rotate(key: SigningKey, retireOthers: Date, audit?: AuditRecord): Promise<void> {
    this.db.transaction(
      (tx) => {
        tx.delete(signingKeys).where(activatingAfter(signingKeys, key.activates)).run();
        tx.insert(signingKeys).values(key).run();
        tx.update(signingKeys).set({ retires: retireOthers }).where(othersUndated(signingKeys, key.kid)).run();
        if (audit) appendAuditEvent(tx, audit);
      },
      { behavior: 'immediate' },
    );
  }

  async listUsable(now: Date): Promise<SigningKey[]> {
    return this.db
      .select()
      .from(signingKeys)
      .where(usableAt(signingKeys, now))
      .orderBy(desc(signingKeys.created), desc(signingKeys.kid))
      .all();
  }
}
