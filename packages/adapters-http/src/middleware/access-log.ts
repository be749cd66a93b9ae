import type { MiddlewareHandler } from 'hono';
import type { AppEnv } from '../app-env';
import type { Logger } from '@uas/domain';

const MAX_LOGGED_PATH = 200;

/**
 * One structured line per request: method, path (never the query, which may carry search terms),
 * status, duration and request id. No bodies, no headers.
 */
export function accessLog(logger: Logger): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const started = performance.now();
    await next();
    const status = c.res.status;
    const fields = {
      requestId: c.get('requestId'),
      method: c.req.method,
      path: c.req.path.slice(0, MAX_LOGGED_PATH),
      status,
      durationMs: Math.round((performance.now() - started) * 10) / 10,
    };
    if (status >= 500) logger.error('request', fields);
    else logger.info('request', fields);
  };
}
