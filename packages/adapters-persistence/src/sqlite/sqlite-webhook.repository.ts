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
import { appendAuditEvent } from './sqlite-audit-trail';
import type { SqliteDb } from './sqlite-db';
import { auditChain, webhooks } from './sqlite-schema';

// A change is one IMMEDIATE transaction: it holds the write lock from its first read, so the state
// it changes is the one it read, on every connection and process. Callbacks are synchronous, as
// better-sqlite3 requires.
const IMMEDIATE = { behavior: 'immediate' } as const;

/** The chain's head (0 before its first event): where a new endpoint's cursor starts. */
const chainHead = sql`coalesce((select ${auditChain.headSeq} from ${auditChain} where ${auditChain.id} = 1), 0)`;

export class SqliteWebhookRepository implements WebhookRepository {
  constructor(private readonly db: SqliteDb) {}

  async create(webhook: NewWebhook, audit: AuditRecord): Promise<Webhook> {
    return this.db.transaction((tx) => {
      const row = tx
        .insert(webhooks)
        .values({ ...newWebhookRow(webhook), cursor: chainHead })
        .returning()
        .get();
      appendAuditEvent(tx, audit);
      return webhookOf(row);
    }, IMMEDIATE);
  }

  async get(id: string): Promise<Webhook | null> {
    const row = this.db.select().from(webhooks).where(eq(webhooks.id, id)).get();
    return row ? webhookOf(row) : null;
  }

  async list(): Promise<Webhook[]> {
    return this.db.select().from(webhooks).orderBy(webhooks.created, webhooks.id).all().map(webhookOf);
  }

  async update(id: string, change: (current: Webhook) => WebhookChange): Promise<Webhook | null> {
    return this.db.transaction((tx) => {
      const current = tx.select().from(webhooks).where(eq(webhooks.id, id)).get();
      if (!current) return null;
      const { webhook, audit } = change(webhookOf(current));
      const row = tx.update(webhooks).set(changedWebhookFields(webhook)).where(eq(webhooks.id, id)).returning().get();
      if (audit) appendAuditEvent(tx, audit);
      return row ? webhookOf(row) : null;
    }, IMMEDIATE);
  }

  async delete(id: string, audit: (removed: Webhook) => AuditRecord): Promise<Webhook | null> {
    return this.db.transaction((tx) => {
      // Its deliveries go with it (the foreign key cascades).
      const row = tx.delete(webhooks).where(eq(webhooks.id, id)).returning().get();
      if (!row) return null;
      const removed = webhookOf(row);
      appendAuditEvent(tx, audit(removed));
      return removed;
    }, IMMEDIATE);
  }

  async rotateSecret(id: string, rotation: WebhookSecretRotation, audit: AuditRecord): Promise<Webhook | null> {
    return this.db.transaction((tx) => {
      const row = tx
        .update(webhooks)
        .set(rotatedSecretColumns(webhooks, rotation))
        .where(eq(webhooks.id, id))
        .returning()
        .get();
      if (!row) return null;
      appendAuditEvent(tx, audit);
      return webhookOf(row);
    }, IMMEDIATE);
  }
}
