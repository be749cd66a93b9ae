import type { MiddlewareHandler } from 'hono';
import type { AppEnv } from '../app-env';
import { PANEL_PATH } from '../routes/admin-panel.routes';

/**
 * The admin API and its panel stay same-origin: their session cookie is defended by the origin
 * check (session/same-origin.ts), and no other origin is meant to read their answers.
 */
const SAME_ORIGIN_ONLY = ['/v1/admin', PANEL_PATH];

/** What the end-user routes read: the bearer token, a JSON body, a version to match, a request id. */
const ALLOWED_HEADERS = 'Authorization, Content-Type, If-Match, X-Request-Id';
const ALLOWED_METHODS = 'GET, HEAD, POST, PATCH, DELETE';
/** What a client reads beyond the safelisted headers: versions, new resources, back-off, challenges, ids. */
const EXPOSED_HEADERS = 'ETag, Location, Retry-After, WWW-Authenticate, X-Request-Id';
/** How long a browser may reuse a preflight's answer (Chromium caps it at two hours). */
const PREFLIGHT_MAX_AGE_SECONDS = 600;

const isSameOriginOnly = (path: string) =>
  SAME_ORIGIN_ONLY.some((prefix) => path === prefix || path.startsWith(`${prefix}/`));

/**
 * Checks each entry of `CORS_ORIGINS`: an origin exactly as a browser sends it in `Origin`
 * (`scheme://host[:port]`, lower case, no default port, no path or trailing slash, never `*`),
 * since requests are matched against the list by plain equality.
 */
export function corsOrigins(entries: readonly string[]): string[] {
  return entries.map((entry) => {
    const url = URL.canParse(entry) ? new URL(entry) : null;
    if (!url || (url.protocol !== 'https:' && url.protocol !== 'http:')) {
      throw new Error(`"${entry}" is not an origin: write scheme://host[:port], e.g. https://app.example.com`);
    }
    if (url.origin !== entry) throw new Error(`"${entry}" is not an origin as a browser sends it: write ${url.origin}`);
    return entry;
  });
}

/**
 * CORS for the end-user and public routes: a request whose `Origin` is one of `origins` may read
 * the answer (`Access-Control-Allow-Origin` echoes it), and its preflight is answered 204 here.
 * Any other origin gets no `Access-Control-*` header at all, so its browser withholds the answer,
 * and its preflight goes on to the routes like any OPTIONS request (405). No route answers with
 * `Access-Control-Allow-Credentials`: these routes read no cookie, so a browser has none to send.
 *
 * The headers are set on the context before the route runs, so every answer made through it,
 * the error handler's included, carries them. `Vary: Origin` is on every answer of these routes
 * (not only the allowed ones) so that a shared cache never serves one origin's answer to another.
 * hono/cors does not fit: it sends `Expose-Headers` and a preflight's 204 to any origin.
 */
export function cors(origins: readonly string[]): MiddlewareHandler<AppEnv> {
  const allowed = new Set(origins);
  return async (c, next) => {
    if (isSameOriginOnly(c.req.path)) return next();
    c.header('Vary', 'Origin', { append: true });
    const origin = c.req.header('origin');
    if (origin === undefined || !allowed.has(origin)) return next();
    c.header('Access-Control-Allow-Origin', origin);
    if (c.req.method === 'OPTIONS' && c.req.header('access-control-request-method') !== undefined) {
      c.header('Access-Control-Allow-Methods', ALLOWED_METHODS);
      c.header('Access-Control-Allow-Headers', ALLOWED_HEADERS);
      c.header('Access-Control-Max-Age', String(PREFLIGHT_MAX_AGE_SECONDS));
      return c.body(null, 204);
    }
    c.header('Access-Control-Expose-Headers', EXPOSED_HEADERS);
    return next();
  };
}
