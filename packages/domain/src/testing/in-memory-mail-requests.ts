import type { ClaimedMailRequest, MailRequest } from '../mail-requests/mail-request.ts';
import type { MailRequestQueue, MailRequestSettlement } from '../mail-requests/mail-request.repository.ts';
import type { InMemoryActionTokenRepository } from './in-memory-action-tokens.ts';
import type { InMemoryAuditTrail } from './in-memory-audit-trail.ts';
import type { InMemoryMailQueue } from './in-memory-mail.ts';

interface Row extends MailRequest {
  attempt: number;
  /** When the current claim's lease ends; null: never claimed. */
  leaseUntil: Date | null;
}

/** Recorded requests in memory: each claim and settle runs without an `await`, as a transaction would. */
export class InMemoryMailRequestQueue implements MailRequestQueue {
  private readonly rows = new Map<string, Row>();

  constructor(
    private readonly tokens: InMemoryActionTokenRepository,
    private readonly mail: InMemoryMailQueue,
    private readonly audit: InMemoryAuditTrail,
  ) {}

  async record(request: MailRequest): Promise<void> {
    this.rows.set(request.id, { ...structuredClone(request), attempt: 0, leaseUntil: null });
  }

  async claim(now: Date, leaseUntil: Date, limit: number): Promise<ClaimedMailRequest[]> {
    const due = [...this.rows.values()]
      .filter((row) => row.leaseUntil === null || row.leaseUntil <= now)
      .sort((a, b) => a.created.getTime() - b.created.getTime() || (a.id < b.id ? -1 : 1))
      .slice(0, limit);
    return due.map((row) => {
      const claimed = { ...row, attempt: row.attempt + 1, leaseUntil };
      this.rows.set(row.id, claimed);
      const { leaseUntil: _lease, ...request } = claimed;
      return structuredClone(request);
    });
  }

  async settle(settlements: readonly MailRequestSettlement[]): Promise<boolean[]> {
    const held = settlements.map(({ claim }) => this.rows.get(claim.id)?.attempt === claim.attempt);
    // All or nothing, as one transaction: a token of an unknown user is what the databases refuse.
    settlements.forEach(({ outcome }, n) => {
      if (held[n] && outcome?.token) this.tokens.assertInsertable(outcome.token);
    });
    settlements.forEach(({ claim, outcome = {} }, n) => {
      if (!held[n]) return;
      if (outcome.token) this.tokens.insertNow(outcome.token);
      if (outcome.mail) this.mail.insertNow(outcome.mail);
      if (outcome.audit) this.audit.appendNow(outcome.audit);
      this.rows.delete(claim.id);
    });
    return held;
  }
}
