import type { MiddlewareHandler } from 'hono';
import type { AppEnv } from '../app-env';

/**
 * Headers every response gets: no MIME sniffing, no referrer, and `Cache-Control: no-store` unless
 * a route chose its own caching (API responses hold personal data and tokens).
 *
 * They are set before the route runs, as the context's headers, which every response made through
 * the context (`c.json`, `c.body`, the error handler's) starts from and a route's own
 * `Cache-Control` replaces. Only a response returned as it is, without the context, still lacks
 * `Cache-Control` afterwards and gets it then: adding a header to a finished response rebuilds
 * it, which would cost every request a copy of its body as a stream and a slower write.
 */
export function securityHeaders(): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    c.header('X-Content-Type-Options', 'nosniff');
    c.header('Referrer-Policy', 'no-referrer');
    c.header('Cache-Control', 'no-store');
    await next();
    if (!c.res.headers.has('cache-control')) c.header('Cache-Control', 'no-store');
  };
}
