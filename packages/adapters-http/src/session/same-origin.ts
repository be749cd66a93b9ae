import type { Context } from 'hono';
import type { AppEnv } from '../app-env';
import { crossSiteRequest } from '../errors/http-problem';

/**
 * CSRF defence for requests that only the session cookie authenticates: besides SameSite=Strict,
 * the browser must say the request comes from this very origin (`Sec-Fetch-Site: same-origin`, or
 * an `Origin` equal to the scheme and host the request was sent to). Otherwise 403.
 */
export function assertSameOrigin<E extends AppEnv>(c: Context<E>): void {
  if (c.req.header('sec-fetch-site')?.toLowerCase() === 'same-origin') return;
  const origin = c.req.header('origin')?.toLowerCase();
  if (origin !== undefined && origin === c.get('client').origin) return;
  throw crossSiteRequest();
}
