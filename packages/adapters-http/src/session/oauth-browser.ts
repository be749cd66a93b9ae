import { OAUTH_STATE_SECONDS } from '@uas/domain';
import type { Context } from 'hono';
import { deleteCookie, getCookie, setCookie } from 'hono/cookie';
import type { CookieOptions } from 'hono/utils/cookie';
import type { AppEnv } from '../app-env';

/**
 * The cookie that binds a trip through an identity provider to the browser that began it: the
 * callback finds the attempt only with it. Sent only to the flow's own paths; SameSite=Lax, so
 * the provider's top-level redirect back carries it (a cross-site POST does not: see the callback).
 */
const OAUTH_COOKIE = 'uas_oauth';
const OAUTH_COOKIE_PATH = '/v1/oauth/';

const attributes = (secure: boolean): CookieOptions => ({
  httpOnly: true,
  sameSite: 'Lax',
  path: OAUTH_COOKIE_PATH,
  secure,
});

/** Sets the trip's cookie for as long as its state waits; `secure` when PUBLIC_URL is https. */
export function setOAuthCookie(c: Context<AppEnv>, value: string, secure: boolean): void {
  setCookie(c, OAUTH_COOKIE, value, { ...attributes(secure), maxAge: OAUTH_STATE_SECONDS });
}

export function clearOAuthCookie(c: Context<AppEnv>, secure: boolean): void {
  deleteCookie(c, OAUTH_COOKIE, attributes(secure));
}

export const oauthCookie = (c: Context<AppEnv>): string | null => getCookie(c, OAUTH_COOKIE) || null;

/**
 * `target` (a same-origin path or an allowed origin's URL, as `redirect_to` was accepted) with
 * `name=value` in its query, replacing any of that name, its other parameters and fragment kept.
 */
export function withQueryParameter(target: string, name: string, value: string): string {
  const absolute = URL.canParse(target);
  const url = new URL(target, 'http://same-origin.invalid');
  url.searchParams.set(name, value);
  return absolute ? url.href : `${url.pathname}${url.search}${url.hash}`;
}
