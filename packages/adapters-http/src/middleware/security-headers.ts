import type { MiddlewareHandler } from 'hono';
import type { AppEnv } from '../app-env';

/**
 * Headers every response gets: no MIME sniffing, no referrer, and `Cache-Control: no-store` unless
 * a route chose its own caching (API responses hold personal data and tokens).
 */
export function securityHeaders(): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    c.header('X-Content-Type-Options', 'nosniff');
    c.header('Referrer-Policy', 'no-referrer');
    await next();
    if (!c.res.headers.has('cache-control')) c.header('Cache-Control', 'no-store');
  };
}
