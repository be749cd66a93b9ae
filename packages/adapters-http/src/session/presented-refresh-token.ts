import { ValidationError } from '@uas/domain';
import type { Context } from 'hono';
import type { AppEnv } from '../app-env';
import { refreshCookie } from './refresh-cookie';
import { assertSameOrigin } from './same-origin';

export interface PresentedToken {
  token: string;
  /** True when only the session cookie supplied it (and the CSRF check has passed). */
  fromCookie: boolean;
}

const missing = (where: string) =>
  new ValidationError([{ source: { pointer: '/refreshToken' }, detail: `refreshToken is required${where}` }]);

/** The refresh token of a user route: the body's, which is required. */
export function bodyRefreshToken(bodyToken: string | undefined): string {
  if (bodyToken === undefined) throw missing('');
  return bodyToken;
}

/**
 * The refresh token of an admin route: the body's, else the session cookie's. A cookie alone
 * is ambient authority, so it must come with proof of the same origin.
 */
export function adminRefreshToken<E extends AppEnv>(c: Context<E>, bodyToken: string | undefined): PresentedToken {
  if (bodyToken !== undefined) return { token: bodyToken, fromCookie: false };
  const cookie = refreshCookie(c);
  if (cookie === undefined) throw missing(' (in the body or the session cookie)');
  assertSameOrigin(c);
  return { token: cookie, fromCookie: true };
}
