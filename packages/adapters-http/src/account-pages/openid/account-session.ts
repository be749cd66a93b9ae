import {
  epochSeconds,
  initiatorOf,
  InvalidTokenError,
  RefreshTokenReusedError,
  type AuthService,
  type Identity,
  type SessionGrant,
  type TokenKeys,
} from '@uas/domain';
import type { Context } from 'hono';
import { deleteCookie, getCookie, setCookie } from 'hono/cookie';
import { timingSafeEqual } from 'hono/utils/buffer';
import type { CookieOptions } from 'hono/utils/cookie';
import type { AppEnv } from '../../app-env';
import { requestContext } from '../../network/request-context';

/** The account pages' session: a user's refresh token, sent only to the pages. */
const ACCOUNT_COOKIE = 'uas_account';

/** What keys the CSRF tokens apart from every other digest made under the same key. */
const CSRF_CONTEXT = 'account-pages-csrf:';

export interface AccountSessionsDeps {
  userAuth: AuthService;
  /** The key ring's keyed digests: a CSRF token is one of the session's id. */
  tokenKeys: Pick<TokenKeys, 'digest' | 'digests'>;
  /** PUBLIC_URL: the cookie's path is the pages' path under it; Secure when it is https. */
  publicUrl: string;
}

/** A browser's signed-in user on the account pages, and the token its forms must carry. */
export interface AccountSession {
  readonly identity: Identity;
  readonly csrf: string;
}

/**
 * The account pages' own session, over the service's one session grant: a sign-in on the pages
 * keeps the grant's refresh token in an HttpOnly cookie (SameSite=Lax, so the application's
 * redirect back finds it; scoped to the pages), and each visit exchanges it for the next one, so
 * a revoked, reused or expired session, or an account deactivated meanwhile, ends here as it does
 * for any client. A form that acts carries a CSRF token: the session's id under the key ring's
 * HMAC, which stays the same across rotations and is worthless for another session.
 */
export class AccountSessions {
  private readonly attributes: CookieOptions;

  constructor(private readonly deps: AccountSessionsDeps) {
    const url = new URL('account/', deps.publicUrl);
    this.attributes = { httpOnly: true, sameSite: 'Lax', path: url.pathname, secure: url.protocol === 'https:' };
  }

  /** Keeps a grant as the browser's session; the cookie lives as long as its refresh token. */
  keep(c: Context<AppEnv>, grant: SessionGrant): void {
    const maxAge = epochSeconds(grant.refreshTokenExpires) - epochSeconds(grant.issued);
    setCookie(c, ACCOUNT_COOKIE, grant.refreshToken, { ...this.attributes, maxAge });
  }

  /** The browser's session, its token exchanged for the next; null (the cookie cleared) when it has none that works. */
  async resume(c: Context<AppEnv>): Promise<AccountSession | null> {
    const token = getCookie(c, ACCOUNT_COOKIE);
    if (!token) return null;
    let grant: SessionGrant;
    try {
      grant = await this.deps.userAuth.refresh(token, requestContext(c));
    } catch (error) {
      if (!(error instanceof InvalidTokenError || error instanceof RefreshTokenReusedError)) throw error;
      deleteCookie(c, ACCOUNT_COOKIE, this.attributes);
      return null;
    }
    this.keep(c, grant);
    const identity: Identity = { kind: 'user', subjectId: grant.principal.id, sessionId: grant.sessionId };
    return { identity, csrf: await this.deps.tokenKeys.digest(CSRF_CONTEXT + grant.sessionId) };
  }

  /** Whether a form's token is the session's, under any key of the ring that may have made it. */
  async csrfMatches(session: AccountSession, given: string): Promise<boolean> {
    if (given === '') return false;
    const expected = await this.deps.tokenKeys.digests(CSRF_CONTEXT + session.identity.sessionId);
    const matches = await Promise.all(expected.map((digest) => timingSafeEqual(digest, given)));
    return matches.includes(true);
  }

  /** Signs the browser out: the session ends (its tokens with it), and the cookie goes. */
  async end(c: Context<AppEnv>, session: AccountSession): Promise<void> {
    const { subjectId, sessionId } = session.identity;
    await this.deps.userAuth.endSession(subjectId, sessionId, initiatorOf(session.identity, requestContext(c)));
    deleteCookie(c, ACCOUNT_COOKIE, this.attributes);
  }
}
