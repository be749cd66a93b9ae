import type { MiddlewareHandler } from 'hono';
import type { AppEnv } from '../app-env';

/** A client's id is echoed only when it is a short token that cannot smuggle anything into logs. */
const SANE_REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/** The id of a request: the client's when it is sane, else a new one. */
export const requestIdOf = (sent: string | undefined): string =>
  sent !== undefined && SANE_REQUEST_ID.test(sent) ? sent : crypto.randomUUID();

/** Gives every request an id, echoed as `X-Request-Id` on every response and named in its log lines. */
export function requestId(): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const id = requestIdOf(c.req.header('x-request-id'));
    c.set('requestId', id);
    c.header('X-Request-Id', id);
    await next();
    if (!c.res.headers.has('x-request-id')) c.header('X-Request-Id', id);
  };
}
