import { ValidationError } from '@uas/domain';
import { missingToken } from '../errors/http-problem';
import type { Context } from 'hono';
import type { AppEnv } from '../app-env';
import { refreshCookie } from './refresh-cookie';
import { assertSameOrigin } from './same-origin';

export interface PresentedToken {
  token: string;
  /** True when only the session cookie supplied it (and the CSRF check has passed). */
  fromCookie: boolean;
}

/** What the presented token is for: to refresh with it, or to revoke it. */
export type TokenUse = 'refresh' | 'revoke';

/** Refreshing without a token is a request without credentials (401); revoking none is a malformed request (422). */
const missing = (use: TokenUse, where: string) =>
  use === 'refresh'
    ? missingToken(`A refresh token is required${where}.`)
    : new ValidationError([{ source: { pointer: '/refreshToken' }, detail: `refreshToken is required${where}` }]);

/** The refresh token of a user route: the body's, which is required. */
export function bodyRefreshToken(use: TokenUse, bodyToken: string | undefined): string {
  if (bodyToken === undefined) throw missing(use, '');
  return bodyToken;
}

/**
 * The refresh token of an admin route: the body's, else the session cookie's. A cookie alone
 * is ambient authority, so it must come with proof of the same origin.
 */
export function adminRefreshToken<E extends AppEnv>(
  c: Context<E>,
  use: TokenUse,
  bodyToken: string | undefined,
): PresentedToken {
  if (bodyToken !== undefined) return { token: bodyToken, fromCookie: false };
  const cookie = refreshCookie(c);
  if (cookie === undefined) throw missing(use, ' (in the body or the session cookie)');
  assertSameOrigin(c);
  return { token: cookie, fromCookie: true };
}
