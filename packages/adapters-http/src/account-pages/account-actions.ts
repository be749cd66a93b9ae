import type { RequestContext } from '@uas/domain';

/**
 * What the `/account/` pages do, and all the HTTP layer needs of the domain for them: the same use
 * cases the JSON endpoints call. Each throws `InvalidActionTokenError` for a wrong, used or
 * expired token, `ValidationError` for a password the rules refuse, `EmailTakenError` when a
 * confirmed new address was taken meanwhile. The request is recorded with the change, as the
 * JSON endpoints record theirs.
 */
export interface AccountActions {
  /** Verifies an address, or confirms an email change: the token's purpose says which. */
  verify(token: unknown, request: RequestContext): Promise<void>;
  /** Sets a new password through a recovery token. */
  resetPassword(token: unknown, password: unknown, request: RequestContext): Promise<void>;
  /** Sets an invited user's first password through an invitation token. */
  acceptInvitation(token: unknown, password: unknown, request: RequestContext): Promise<void>;
  /** Sets an invited administrator's password through their invitation's token: the admin is made. */
  acceptAdminInvitation(token: unknown, password: unknown, request: RequestContext): Promise<void>;
}
