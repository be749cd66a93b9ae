import type { RequestContext } from '../audit/audit-event.ts';

/**
 * What an enumeration-safe endpoint asks for, to be resolved off the request path: `recovery`
 * (POST /v1/recover) mails a recovery link if an active user has the address; `verification`
 * (POST /v1/verify/resend) mails a verification link if the user exists and is unverified.
 */
export const MAIL_REQUEST_KINDS = ['recovery', 'verification'] as const;
export type MailRequestKind = (typeof MAIL_REQUEST_KINDS)[number];

/**
 * A request as the endpoint records it: the same one insert whether or not the address belongs
 * to anyone, so the answer tells nothing. It keeps the request's context for the audit event.
 */
export interface MailRequest {
  readonly id: string;
  readonly kind: MailRequestKind;
  /** The address asked about, normalised. */
  readonly email: string;
  readonly created: Date;
  readonly request: RequestContext;
}

/**
 * A request a worker has claimed until its lease ends. `attempt` names the claim: settling it
 * does something only while no later claim has taken the request over.
 */
export interface ClaimedMailRequest extends MailRequest {
  readonly attempt: number;
}

/** How long a claim lasts: a worker that died holding a request leaves it to another after this. */
export const MAIL_REQUEST_LEASE_SECONDS = 30;

/** Claims after which a request that still fails to resolve is dropped (and logged). */
export const MAIL_REQUEST_MAX_ATTEMPTS = 5;
