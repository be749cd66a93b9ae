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

/**
 * The cookie's attributes for PUBLIC_URL: its path is the flow's paths as the browser sees them
 * (under PUBLIC_URL's own path when the service sits behind a prefix), Secure when it is https.
 */
export function oauthCookieAttributes(publicUrl: string): CookieOptions {
  const url = new URL('v1/oauth/', publicUrl);
  return { httpOnly: true, sameSite: 'Lax', path: url.pathname, secure: url.protocol === 'https:' };
}

/** Sets the trip's cookie for as long as its state waits. */
export function setOAuthCookie(c: Context<AppEnv>, value: string, attributes: CookieOptions): void {
  setCookie(c, OAUTH_COOKIE, value, { ...attributes, maxAge: OAUTH_STATE_SECONDS });
}

export function clearOAuthCookie(c: Context<AppEnv>, attributes: CookieOptions): void {
  deleteCookie(c, OAUTH_COOKIE, attributes);
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
