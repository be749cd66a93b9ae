import type { StoredActionToken } from '../action-tokens/action-token.ts';
import type { AuditRecord } from '../audit/audit-event.ts';
import type { NewMail } from '../mail/mail-message.ts';
import { token } from '../shared/token.ts';
import type { User } from '../users/user.ts';
import type { Invitation, InvitationPage, ListedInvitation } from './invitation.ts';

/** What an invitation writes in one transaction: its user, itself, its token and message, its event. */
export interface InvitationWrite {
  user: User;
  invitation: Invitation;
  token: StoredActionToken;
  mail: NewMail;
  audit: AuditRecord;
}

/** What a resend writes: a new token and its message; the user's older tokens are voided. */
export interface InvitationResend {
  token: StoredActionToken;
  mail: NewMail;
  audit: AuditRecord;
}

/**
 * Stores invitations beside the users they made. Every change reads and writes in one
 * transaction, so an acceptance and a revocation racing each other cannot both win: the lock
 * order is the user's row, then the invitation, then the tokens, as every user change takes them.
 */
export interface InvitationRepository {
  /**
   * Stores the user, the invitation, the token and its message, and the event, in one
   * transaction; EmailTakenError (and nothing stored) when the address has an account already.
   */
  create(write: InvitationWrite): Promise<void>;
  /** A pending invitation, with its user's address and name; null when none is (accepted, revoked). */
  findPending(id: string): Promise<ListedInvitation | null>;
  /** Pending invitations, oldest first. */
  listPending(query: { page: number; size: number }): Promise<InvitationPage>;
  /**
   * Voids the user's unused tokens and stores the new one with its message, if the invitation is
   * still pending and its user's address is still the one the message goes to
   * (`resend.token.email`); `sent` and `expires` follow the new token. Null, and nothing written,
   * otherwise.
   */
  resend(id: string, resend: InvitationResend): Promise<ListedInvitation | null>;
  /**
   * Revokes a pending invitation: it goes, and so does its user while no password was set (its
   * tokens go with it); a user an admin gave a password meanwhile stays, its tokens voided.
   * `audit` sees the invitation as it was, and whether its user goes with it. Null, and nothing
   * written, when it is not pending.
   */
  revoke(
    id: string,
    at: Date,
    audit: (pending: ListedInvitation, userRemoved: boolean) => AuditRecord,
  ): Promise<ListedInvitation | null>;
  /**
   * Accepts the invitation whose token is stored under one of `digests` (purpose `invitation`,
   * unused and unexpired at `now`), in one transaction: the token is used, the user's other
   * tokens voided, the invitation accepted at `now`, the user replaced by what `accept` makes of
   * it (a password, a verified address) and the event appended. Null, and nothing written, for a
   * wrong, used, voided or expired token, or an invitation no longer pending. Of concurrent
   * acceptances and revocations of one invitation exactly one wins.
   */
  accept(
    digests: readonly string[],
    now: Date,
    accept: (user: User, invitation: Invitation) => { user: User; audit: AuditRecord },
  ): Promise<Invitation | null>;
}
export const InvitationRepository = token<InvitationRepository>('InvitationRepository');
