import type { Context } from 'hono';
import { getCookie, setCookie } from 'hono/cookie';
import type { CookieOptions } from 'hono/utils/cookie';
import type { AppEnv } from '../app-env';
import { epochSeconds, type SessionGrant } from '@uas/domain';

/** The admin panel's session cookie: the refresh token, sent only to the admin API. */
export const REFRESH_COOKIE = 'uas_admin_refresh';
export const REFRESH_COOKIE_PATH = '/v1/admin';

function attributes<E extends AppEnv>(c: Context<E>): CookieOptions {
  return { httpOnly: true, sameSite: 'Strict', path: REFRESH_COOKIE_PATH, secure: c.get('client').secure };
}

/** Stores a grant's refresh token; the cookie lives exactly as long as the token (its `exp` − `iat`). */
export function setRefreshCookie<E extends AppEnv>(c: Context<E>, grant: SessionGrant): void {
  const maxAge = epochSeconds(grant.refreshTokenExpires) - epochSeconds(grant.issued);
  setCookie(c, REFRESH_COOKIE, grant.refreshToken, { ...attributes(c), maxAge });
}

export function clearRefreshCookie<E extends AppEnv>(c: Context<E>): void {
  setCookie(c, REFRESH_COOKIE, '', { ...attributes(c), maxAge: 0 });
}

export function refreshCookie<E extends AppEnv>(c: Context<E>): string | undefined {
  return getCookie(c, REFRESH_COOKIE) || undefined;
}
