import { eq, sql } from 'drizzle-orm';
import {
  changedWebhookFields,
  type AuditRecord,
  type NewWebhook,
  type Webhook,
  type WebhookChange,
  type WebhookRepository,
  type WebhookSecretRotation,
} from '@uas/domain';
import { newWebhookRow, rotatedSecretColumns, webhookOf } from '../shared/webhook-rows';
import { appendAuditEvent } from './postgres-audit-trail';
import type { PostgresDb } from './postgres-db';
import { auditChain, webhooks } from './postgres-schema';

/** The chain's head (0 before its first event): where a new endpoint's cursor starts. */
const chainHead = sql`coalesce((select ${auditChain.headSeq} from ${auditChain} where ${auditChain.id} = 1), 0)`;

export class PostgresWebhookRepository implements WebhookRepository {
  constructor(private readonly db: PostgresDb) {}

  async create(webhook: NewWebhook, audit: AuditRecord): Promise<Webhook> {
    return this.db.transaction(async (tx) => {
      const [row] = await tx
        .insert(webhooks)
        .values({ ...newWebhookRow(webhook), cursor: chainHead })
        .returning();
      await appendAuditEvent(tx, audit);
      return webhookOf(row!);
    });
  }

  async get(id: string): Promise<Webhook | null> {
    const [row] = await this.db.select().from(webhooks).where(eq(webhooks.id, id));
    return row ? webhookOf(row) : null;
  }

  async list(): Promise<Webhook[]> {
    return (await this.db.select().from(webhooks).orderBy(webhooks.created, webhooks.id)).map(webhookOf);
  }

  async update(id: string, change: (current: Webhook) => WebhookChange): Promise<Webhook | null> {
    return this.db.transaction(async (tx) => {
      // The row's lock holds a concurrent change until this one commits; it then reads this one's result.
      const [current] = await tx.select().from(webhooks).where(eq(webhooks.id, id)).for('update');
      if (!current) return null;
      const { webhook, audit } = change(webhookOf(current));
      const [row] = await tx.update(webhooks).set(changedWebhookFields(webhook)).where(eq(webhooks.id, id)).returning();
      if (audit) await appendAuditEvent(tx, audit);
      return row ? webhookOf(row) : null;
    });
  }

  async delete(id: string, audit: (removed: Webhook) => AuditRecord): Promise<Webhook | null> {
    return this.db.transaction(async (tx) => {
      // Its deliveries go with it (the foreign key cascades).
      const [row] = await tx.delete(webhooks).where(eq(webhooks.id, id)).returning();
      if (!row) return null;
      const removed = webhookOf(row);
      await appendAuditEvent(tx, audit(removed));
      return removed;
    });
  }

  async rotateSecret(id: string, rotation: WebhookSecretRotation, audit: AuditRecord): Promise<Webhook | null> {
    return this.db.transaction(async (tx) => {
      const [row] = await tx
        .update(webhooks)
        .set(rotatedSecretColumns(webhooks, rotation))
        .where(eq(webhooks.id, id))
        .returning();
      if (!row) return null;
      await appendAuditEvent(tx, audit);
      return webhookOf(row);
    });
  }
}
