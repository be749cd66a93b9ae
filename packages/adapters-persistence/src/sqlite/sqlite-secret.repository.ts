import { and, eq, isNull } from 'drizzle-orm';
import type { AuditRecord, Secret, SecretPurpose, SecretRepository } from '@uas/domain';
import { currentThenNewest } from '../shared/mail-rows';
import { appendAuditEvent } from './sqlite-audit-trail';
import type { SqliteDb } from './sqlite-db';
import { secrets } from './sqlite-schema';

export class SqliteSecretRepository implements SecretRepository {
  constructor(private readonly db: SqliteDb) {}

  /** An immediate transaction: rotations on every connection to the file take turns. */
  async rotate(secret: Secret, audit?: AuditRecord): Promise<void> {
    this.db.transaction(
      (tx) => {
        tx.update(secrets)
          .set({ retired: secret.created })
          .where(and(eq(secrets.purpose, secret.purpose), isNull(secrets.retired)))
          .run();
        tx.insert(secrets).values(secret).run();
        if (audit) appendAuditEvent(tx, audit);
      },
      { behavior: 'immediate' },
    );
  }

  async replaceMaterial(id: string, previous: string, material: string): Promise<boolean> {
    const result = this.db
      .update(secrets)
      .set({ material })
      .where(and(eq(secrets.id, id), eq(secrets.material, previous)))
      .run();
    return result.changes === 1;
  }

  async list(purpose: SecretPurpose): Promise<Secret[]> {
    return this.db
      .select()
      .from(secrets)
      .where(eq(secrets.purpose, purpose))
      .orderBy(...currentThenNewest(secrets))
      .all();
  }
}
