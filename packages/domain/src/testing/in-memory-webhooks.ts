import type { AuditRecord } from '../audit/audit-event.ts';
import type { NewWebhook, Webhook } from '../webhooks/webhook.ts';
import {
  changedWebhookFields,
  type WebhookChange,
  type WebhookRepository,
  type WebhookSecretRotation,
} from '../webhooks/webhook.repository.ts';
import type { InMemoryAuditTrail } from './in-memory-audit-trail.ts';

const oldestFirst = (a: Webhook, b: Webhook) => a.created.getTime() - b.created.getTime() || (a.id < b.id ? -1 : 1);

/** Webhook endpoints in memory: each change decides and writes without an `await` in between. */
export class InMemoryWebhookRepository implements WebhookRepository {
  readonly rows = new Map<string, Webhook>();

  constructor(private readonly audit: InMemoryAuditTrail) {}

  async create(webhook: NewWebhook, audit: AuditRecord): Promise<Webhook> {
    const stored: Webhook = { ...structuredClone(webhook), cursor: this.audit.head.seq };
    this.rows.set(webhook.id, stored);
    this.audit.appendNow(audit);
    return structuredClone(stored);
  }

  async get(id: string): Promise<Webhook | null> {
    const row = this.rows.get(id);
    return row ? structuredClone(row) : null;
  }

  async list(): Promise<Webhook[]> {
    return [...this.rows.values()].sort(oldestFirst).map((row) => structuredClone(row));
  }

  async update(id: string, change: (current: Webhook) => WebhookChange): Promise<Webhook | null> {
    const current = this.rows.get(id);
    if (!current) return null;
    const { webhook, audit } = change(structuredClone(current));
    const stored: Webhook = structuredClone({ ...current, ...changedWebhookFields(webhook) });
    this.rows.set(id, stored);
    if (audit) this.audit.appendNow(audit);
    return structuredClone(stored);
  }

  async delete(id: string, audit: (removed: Webhook) => AuditRecord): Promise<Webhook | null> {
    const current = this.rows.get(id);
    if (!current) return null;
    this.rows.delete(id);
    this.audit.appendNow(audit(structuredClone(current)));
    return structuredClone(current);
  }

  async rotateSecret(id: string, rotation: WebhookSecretRotation, audit: AuditRecord): Promise<Webhook | null> {
    const current = this.rows.get(id);
    if (!current) return null;
    const stored: Webhook = {
      ...current,
      secret: { ...rotation.secret },
      previousSecret: current.secret,
      previousSecretUntil: rotation.previousUntil,
      updated: rotation.now,
    };
    this.rows.set(id, stored);
    this.audit.appendNow(audit);
    return structuredClone(stored);
  }
}
