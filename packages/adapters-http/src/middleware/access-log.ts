import type { MiddlewareHandler } from 'hono';
import type { AppEnv } from '../app-env';
import type { Logger } from '@uas/domain';

const MAX_LOGGED_PATH = 200;

/** What the request log says of one request: never the query, a body or a header. */
export interface RequestLine {
  requestId: string;
  method: string;
  /** The path alone: the query may carry search terms, codes or tokens. */
  path: string;
  status: number;
  /** When the request began, by `performance.now()`. */
  startedAt: number;
  /** The caller's address as the service reads it (trusted proxies included), when known. */
  clientAddress: string | null;
}

/** One structured line per request, the same for the Hono app and the OpenID engine beside it. */
export function logRequest(logger: Logger, line: RequestLine): void {
  const { startedAt, ...rest } = line;
  const fields = {
    ...rest,
    path: line.path.slice(0, MAX_LOGGED_PATH),
    durationMs: Math.round((performance.now() - startedAt) * 10) / 10,
  };
  if (line.status >= 500) logger.error('request', fields);
  else logger.info('request', fields);
}

/** The request log of the Hono app: method, path, status, duration, request id and client address. */
export function accessLog(logger: Logger): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const startedAt = performance.now();
    await next();
    logRequest(logger, {
      requestId: c.get('requestId'),
      method: c.req.method,
      path: c.req.path,
      status: c.res.status,
      startedAt,
      // Read by the client-info middleware, unless the request was refused before it ran.
      clientAddress: c.get('client')?.address ?? null,
    });
  };
}
