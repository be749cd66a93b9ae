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
   * Removes the claimed request and writes its outcome, in one transaction: so a request leads to
   * its token and message exactly once. False, and nothing written, when the claim was taken over.
   */
  settle(claim: Pick<ClaimedMailRequest, 'id' | 'attempt'>, outcome?: MailRequestOutcome): Promise<boolean>;
}
export const MailRequestQueue = token<MailRequestQueue>('MailRequestQueue');
