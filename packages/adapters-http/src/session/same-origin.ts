import type { Context } from 'hono';
import type { AppEnv } from '../app-env';
import { crossSiteRequest } from '../errors/http-problem';

/**
 * Whether the browser says the request comes from this very origin: `Sec-Fetch-Site:
 * same-origin`, or an `Origin` equal to the scheme and host the request was sent to.
 */
export function isSameOrigin<E extends AppEnv>(c: Context<E>): boolean {
  if (c.req.header('sec-fetch-site')?.toLowerCase() === 'same-origin') return true;
  const origin = c.req.header('origin')?.toLowerCase();
  return origin !== undefined && origin === c.get('client').origin;
}

/**
 * CSRF defence for requests that only the session cookie authenticates: besides SameSite=Strict,
 * the request must come from this origin (`isSameOrigin`). Otherwise 403.
 */
export function assertSameOrigin<E extends AppEnv>(c: Context<E>): void {
  if (!isSameOrigin(c)) throw crossSiteRequest();
}
