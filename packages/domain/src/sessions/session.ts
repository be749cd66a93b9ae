import type { AuthMethod } from '../factors/factor.ts';
import type { SubjectKind } from '../shared/identity.ts';

/** A login: the family of refresh tokens that descend from it, and the access tokens naming it. */
export interface Session {
  readonly id: string;
  readonly kind: SubjectKind;
  readonly subjectId: string;
  readonly created: Date;
  /** When its refresh token was last exchanged (its creation until then). */
  readonly lastUsed: Date;
  /** When its newest refresh token expires: past that, nothing of it works any more. */
  readonly expires: Date;
  /**
   * The client address and user agent of the login that opened it, for the account's owner to
   * recognise it; null for sessions opened before the service recorded them.
   */
  readonly clientAddress: string | null;
  readonly userAgent: string | null;
  /**
   * How its login proved the account (RFC 8176), carried by every access token of it, refreshed
   * ones included; `['pwd']` for sessions opened before the service recorded it.
   */
  readonly amr: readonly AuthMethod[];
  /** Set when the session ends (logout, reuse, password change...): every token of it dies. */
  readonly revoked: Date | null;
  /**
   * The admin who opened it by impersonating its user (see ImpersonationService); null for the
   * user's own login. Its token acts for the user, and what it does is recorded under this admin.
   */
  readonly impersonatorId: string | null;
}

/** Where a login comes from, as the session remembers it. */
export interface LoginClient {
  readonly address: string;
  readonly userAgent: string | null;
}

export interface RefreshToken {
  /** The token's `jti`. */
  readonly id: string;
  readonly sessionId: string;
  readonly issued: Date;
  readonly expires: Date;
  /** Set when the token was exchanged for its successor. Presenting it again is reuse. */
  readonly retired: Date | null;
  /** Set when the token was revoked on purpose. */
  readonly revoked: Date | null;
}

/**
 * Whether a retired token is presented again within `graceSeconds` of its rotation: then it is
 * most likely a second tab or a retried request that lost the race, not a thief, and gets the
 * session's current token instead of ending the session. 0 disables the window.
 */
export function withinReuseGrace(token: RefreshToken, now: Date, graceSeconds: number): boolean {
  return token.retired !== null && graceSeconds > 0 && now.getTime() - token.retired.getTime() <= graceSeconds * 1000;
}

/**
 * Whether opening the session is a user's login, which sets their last login and counts in the
 * day's logins: an admin's is not, nor is an impersonation (the user did not sign in).
 */
export function isUserLogin(session: Session): boolean {
  return session.kind === 'user' && session.impersonatorId === null;
}

/** Whether the session still works at `now`: neither ended nor past its expiry. */
export function isSessionLive(session: Session, now: Date): boolean {
  return !session.revoked && session.expires.getTime() > now.getTime();
}

export type RefreshTokenState = 'current' | 'retired' | 'revoked' | 'expired';

/** What presenting a refresh token means now. Only a `current` token may be exchanged. */
export function refreshTokenState(token: RefreshToken, session: Session, now: Date): RefreshTokenState {
  if (session.revoked || token.revoked) return 'revoked';
  if (token.retired) return 'retired';
  if (token.expires.getTime() <= now.getTime()) return 'expired';
  return 'current';
}
