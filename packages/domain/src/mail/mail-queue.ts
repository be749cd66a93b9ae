import type { AuditRecord } from '../audit/audit-event.ts';
import { token } from '../shared/token.ts';
import type { ClaimedMail, ListedMail, MailMessage, MailOutcome, NewMail } from './mail-message.ts';

export interface MailPage {
  /** Newest first: by `created`, then by id. */
  messages: ListedMail[];
  total: number;
}

/**
 * The outbox: messages waiting to be delivered, claimed by senders on any instance, each
 * delivered once however many run.
 *
 * Enqueueing in the transaction of the change that causes a message: sealing a body is
 * asynchronous and SQLite transactions are synchronous, so a flow renders and seals its message
 * first (`MailService.compose`, answering a `NewMail`), then hands that row to the write port of
 * its change (a `mail` beside `audit` in `UserWrite`, say), whose transaction inserts it with the
 * same helper `enqueue` uses (`insertMail` in each dialect's mail queue). `enqueue` itself is
 * for a message that goes with no other write (the test message).
 */
export interface MailQueue {
  /** Queues `message`, due at once. */
  enqueue(message: NewMail): Promise<void>;
  /**
   * Claims up to `limit` messages due at `now` (queued ones whose time has come, and those whose
   * sender's lease ended), oldest due first: each becomes `sending` until `leaseUntil`, with one
   * more attempt. Claims racing on any instances never share a message.
   */
  claim(now: Date, leaseUntil: Date, limit: number): Promise<ClaimedMail[]>;
  /**
   * Records how the attempt `claim` made ended; a delivered or failed message loses its body, and
   * `audit` (its event) is appended in the same transaction. False, and nothing written, when the
   * claim was taken over after its lease ended.
   */
  settle(claim: Pick<ClaimedMail, 'id' | 'attempt'>, outcome: MailOutcome, audit?: AuditRecord): Promise<boolean>;
  list(query: { page: number; size: number }): Promise<MailPage>;
  findById(id: string): Promise<MailMessage | null>;
}
export const MailQueue = token<MailQueue>('MailQueue');
