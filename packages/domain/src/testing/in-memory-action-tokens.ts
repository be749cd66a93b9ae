import type {
  ActionPurpose,
  ActionToken,
  ActionTokenLifetimes,
  StoredActionToken,
} from '../action-tokens/action-token.ts';
import type { ActionTokenRepository } from '../action-tokens/action-token.repository.ts';
import type { TokenKeys } from '../action-tokens/token-keys.ts';
import type { NewMail } from '../mail/mail-message.ts';
import type { AuditRecord } from '../audit/audit-event.ts';
import type { InMemoryAuditTrail } from './in-memory-audit-trail.ts';
import type { InMemoryMailQueue } from './in-memory-mail.ts';

/** Single-use tokens in memory: each call runs to its end before another starts, as one statement would. */
export class InMemoryActionTokenRepository implements ActionTokenRepository {
  private readonly rows = new Map<string, StoredActionToken>();

  constructor(
    private readonly mail: InMemoryMailQueue,
    private readonly audit: InMemoryAuditTrail,
    private readonly userExists: (id: string) => boolean,
  ) {}

  async issue(
    token: StoredActionToken,
    mail: NewMail | null,
    audit?: AuditRecord,
    notices: readonly NewMail[] = [],
  ): Promise<void> {
    this.insertNow(token);
    if (mail) this.mail.insertNow(mail);
    for (const notice of notices) this.mail.insertNow(notice);
    if (audit) this.audit.appendNow(audit);
  }

  async find(purpose: ActionPurpose, digests: readonly string[], now: Date): Promise<ActionToken | null> {
    return this.findNow(purpose, digests, now);
  }

  async consume(purpose: ActionPurpose, digests: readonly string[], now: Date): Promise<ActionToken | null> {
    return this.consumeNow(purpose, digests, now);
  }

  /** What a fake's transaction stores a token with: at once. */
  insertNow(token: StoredActionToken): void {
    this.assertInsertable(token);
    this.rows.set(token.id, structuredClone(token));
  }

  /** Throws what insertNow would, storing nothing: a fake transaction checks before it writes. */
  assertInsertable(token: StoredActionToken): void {
    if (!this.userExists(token.userId)) throw new Error(`No user ${token.userId} to own a token.`);
    if ([...this.rows.values()].some((row) => row.digest === token.digest)) throw new Error('Duplicate token digest.');
  }

  /** What a fake's transaction queues a message with (see InMemoryMailQueue.insertNow). */
  queueNow(mail: NewMail): void {
    this.mail.insertNow(mail);
  }

  findNow(
    purpose: ActionPurpose | readonly ActionPurpose[],
    digests: readonly string[],
    now: Date,
  ): ActionToken | null {
    const row = this.usable(purpose, digests, now);
    if (!row) return null;
    const { digest: _digest, ...found } = row;
    return structuredClone(found);
  }

  consumeNow(
    purpose: ActionPurpose | readonly ActionPurpose[],
    digests: readonly string[],
    now: Date,
  ): ActionToken | null {
    const row = this.usable(purpose, digests, now);
    if (!row) return null;
    const { digest: _digest, ...used } = { ...row, used: now };
    this.rows.set(row.id, { ...row, used: now });
    return structuredClone(used);
  }

  private usable(
    purpose: ActionPurpose | readonly ActionPurpose[],
    digests: readonly string[],
    now: Date,
  ): StoredActionToken | undefined {
    const purposes: readonly ActionPurpose[] = typeof purpose === 'string' ? [purpose] : purpose;
    return [...this.rows.values()].find(
      (candidate) =>
        digests.includes(candidate.digest) &&
        purposes.includes(candidate.purpose) &&
        candidate.used === null &&
        candidate.expires > now,
    );
  }

  /** What a change of the user's password or email does in its transaction (UserWrite.voidTokens). */
  voidUserTokens(userId: string, at: Date): void {
    for (const row of this.rows.values()) {
      if (row.userId === userId && row.used === null) this.rows.set(row.id, { ...row, used: at });
    }
  }

  /** What deleting the user does: its tokens go with it. */
  dropUserTokens(userId: string): void {
    for (const row of this.rows.values()) if (row.userId === userId) this.rows.delete(row.id);
  }
}

/**
 * Tokens counted up and "digests" that name the key generation, so rotation is visible in tests:
 * never for production, where the server's key ring makes random tokens and real HMACs.
 */
export class FakeTokenKeys implements TokenKeys {
  private count = 0;
  private generations = 1;

  generate(): string {
    this.count += 1;
    return `test-token-${this.count.toString().padStart(8, '0')}`;
  }

  async digest(token: string): Promise<string> {
    return `hmac-${this.generations}:${token}`;
  }

  async digests(token: string): Promise<string[]> {
    return Array.from({ length: this.generations }, (_, index) => `hmac-${this.generations - index}:${token}`);
  }

  async reloadedDigests(token: string): Promise<string[]> {
    return this.digests(token);
  }

  /** A new current secret; the older ones keep finding what they made. */
  rotate(): void {
    this.generations += 1;
  }
}

/** Token lifetimes for tests: a day to verify, half an hour to recover, an hour to change an email, a week to accept. */
export const TEST_TOKEN_LIFETIMES: ActionTokenLifetimes = {
  verification: 86_400,
  recovery: 1800,
  email_change: 3600,
  invitation: 604_800,
};
