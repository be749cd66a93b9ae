import { and, eq, isNull } from 'drizzle-orm';
import type { AuditRecord, Secret, SecretPurpose, SecretRepository } from '@uas/domain';
import { currentThenNewest } from '../shared/mail-rows';
import { takeTurns } from './postgres-advisory-lock';
import { appendAuditEvent } from './postgres-audit-trail';
import type { PostgresDb } from './postgres-db';
import { secrets } from './postgres-schema';

export class PostgresSecretRepository implements SecretRepository {
  constructor(private readonly db: PostgresDb) {}

  /**
   * Rotations of a purpose take turns on a transaction-level advisory lock: without it, a racing
   * one would find no current secret to retire yet (the other's is uncommitted) and then collide
   * with it on the partial unique index.
   */
  async rotate(secret: Secret, audit?: AuditRecord): Promise<void> {
    await this.db.transaction(async (tx) => {
      await takeTurns(tx, `uas.secrets.${secret.purpose}`);
      await tx
        .update(secrets)
        .set({ retired: secret.created })
        .where(and(eq(secrets.purpose, secret.purpose), isNull(secrets.retired)));
      await tx.insert(secrets).values(secret);
      if (audit) await appendAuditEvent(tx, audit);
    });
  }

  async replaceMaterial(id: string, previous: string, material: string): Promise<boolean> {
    const changed = await this.db
      .update(secrets)
      .set({ material })
      .where(and(eq(secrets.id, id), eq(secrets.material, previous)))
      .returning({ id: secrets.id });
    return changed.length === 1;
  }

  async list(purpose: SecretPurpose): Promise<Secret[]> {
    return this.db
      .select()
      .from(secrets)
      .where(eq(secrets.purpose, purpose))
      .orderBy(...currentThenNewest(secrets));
  }
}
