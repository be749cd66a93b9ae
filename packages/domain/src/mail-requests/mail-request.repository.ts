import type { StoredActionToken } from '../action-tokens/action-token.ts';
import type { AuditRecord } from '../audit/audit-event.ts';
import type { NewMail } from '../mail/mail-message.ts';
import { token } from '../shared/token.ts';
import type { ClaimedMailRequest, MailRequest } from './mail-request.ts';

/** What resolving a request writes: the token, the message that carries it, and the audit event; each optional. */
export interface MailRequestOutcome {
  readonly token?: StoredActionToken;
  readonly mail?: NewMail;
  readonly audit?: AuditRecord;
}

/** A claimed request and what resolving it writes. */
export interface MailRequestSettlement {
  readonly claim: Pick<ClaimedMailRequest, 'id' | 'attempt'>;
  readonly outcome?: MailRequestOutcome;
}

/**
 * The durable queue of requests the enumeration-safe endpoints record (see MailRequest), resolved
 * by a worker on every instance. A recorded request survives a crash of the instance that took it.
 */
export interface MailRequestQueue {
  /** Records a request, due at once: one insert. */
  record(request: MailRequest): Promise<void>;
  /**
   * Claims up to `limit` requests due at `now` (never claimed, or whose claim's lease ended), the
   * oldest first; each is leased until `leaseUntil`, with one more attempt. Claims racing on any
   * instances never share a request (PostgreSQL: FOR UPDATE SKIP LOCKED).
   */
  claim(now: Date, leaseUntil: Date, limit: number): Promise<ClaimedMailRequest[]>;
  /**
   * Removes each claimed request and writes its outcome, all in one transaction (a worker settles
   * its whole round at once: one commit, not one per request), so a request leads to its token
   * and message exactly once. Answers, for each in order, whether it was settled: false, and
   * nothing of it written, when its claim was taken over. When any outcome cannot be written, it
   * rejects and writes nothing at all: each request is left to a later claim.
   */
  settle(settlements: readonly MailRequestSettlement[]): Promise<boolean[]>;
}
export const MailRequestQueue = token<MailRequestQueue>('MailRequestQueue');
