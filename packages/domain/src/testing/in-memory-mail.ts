import type { AuditRecord } from '../audit/audit-event.ts';
import {
  settledColumns,
  type ClaimedMail,
  type ListedMail,
  type MailMessage,
  type MailOutcome,
  type NewMail,
} from '../mail/mail-message.ts';
import type { MailPage, MailQueue } from '../mail/mail-queue.ts';
import type { Secret, SecretPurpose } from '../secrets/secret.ts';
import type { SecretRepository } from '../secrets/secret.repository.ts';
import type { InMemoryAuditTrail } from './in-memory-audit-trail.ts';

const time = (date: Date | null) => date?.getTime() ?? Number.POSITIVE_INFINITY;

/**
 * The outbox in memory. Each claim and settle runs without an `await`, which is what a single
 * statement gives the real stores; `insertNow` is what a fake's transaction would call.
 */
export class InMemoryMailQueue implements MailQueue {
  private readonly rows = new Map<string, MailMessage>();

  constructor(private readonly audit: InMemoryAuditTrail) {}

  insertNow(message: NewMail): void {
    this.rows.set(message.id, {
      ...structuredClone(message),
      status: 'queued',
      attempts: 0,
      nextAttemptAt: message.created,
      lastError: null,
      deliveredAt: null,
    });
  }

  async enqueue(message: NewMail): Promise<void> {
    this.insertNow(message);
  }

  async claim(now: Date, leaseUntil: Date, limit: number): Promise<ClaimedMail[]> {
    const due = [...this.rows.values()]
      .filter(
        (row) => (row.status === 'queued' || row.status === 'sending') && time(row.nextAttemptAt) <= now.getTime(),
      )
      .sort((a, b) => time(a.nextAttemptAt) - time(b.nextAttemptAt) || (a.id < b.id ? -1 : 1))
      .slice(0, limit);
    return due.map((row) => {
      const claimed: MailMessage = { ...row, status: 'sending', attempts: row.attempts + 1, nextAttemptAt: leaseUntil };
      this.rows.set(row.id, claimed);
      const { id, kind, recipient, subject, body } = claimed;
      return structuredClone({ id, kind, recipient, subject, body: body!, attempt: claimed.attempts });
    });
  }

  async settle(
    claim: Pick<ClaimedMail, 'id' | 'attempt'>,
    outcome: MailOutcome,
    audit?: AuditRecord,
  ): Promise<boolean> {
    const row = this.rows.get(claim.id);
    if (row?.status !== 'sending' || row.attempts !== claim.attempt) return false;
    this.rows.set(claim.id, { ...row, ...settledColumns(claim.attempt, outcome) });
    if (audit) this.audit.appendNow(audit);
    return true;
  }

  async list({ page, size }: { page: number; size: number }): Promise<MailPage> {
    const newestFirst = [...this.rows.values()].sort(
      (a, b) => b.created.getTime() - a.created.getTime() || (a.id < b.id ? 1 : -1),
    );
    return {
      messages: newestFirst
        .slice((page - 1) * size, page * size)
        .map(({ body: _body, ...listed }): ListedMail => structuredClone(listed)),
      total: newestFirst.length,
    };
  }

  async findById(id: string): Promise<MailMessage | null> {
    const row = this.rows.get(id);
    return row ? structuredClone(row) : null;
  }
}

export class InMemorySecretRepository implements SecretRepository {
  private readonly secrets: Secret[] = [];

  constructor(private readonly audit: InMemoryAuditTrail) {}

  async rotate(secret: Secret, audit?: AuditRecord): Promise<void> {
    this.secrets.forEach((other, index) => {
      if (other.purpose === secret.purpose && !other.retired)
        this.secrets[index] = { ...other, retired: secret.created };
    });
    this.secrets.push(structuredClone(secret));
    if (audit) this.audit.appendNow(audit);
  }

  async replaceMaterial(id: string, previous: string, material: string): Promise<boolean> {
    const index = this.secrets.findIndex((secret) => secret.id === id && secret.material === previous);
    const found = this.secrets[index];
    if (!found) return false;
    this.secrets[index] = { ...found, material };
    return true;
  }

  async list(purpose: SecretPurpose): Promise<Secret[]> {
    return this.secrets
      .filter((secret) => secret.purpose === purpose)
      .sort(
        (a, b) =>
          Number(a.retired !== null) - Number(b.retired !== null) ||
          b.created.getTime() - a.created.getTime() ||
          (a.id < b.id ? 1 : -1),
      )
      .map((secret) => structuredClone(secret));
  }
}
