import type { AuthService } from '@uas/domain';
import type { Context } from 'hono';
import { createMiddleware } from 'hono/factory';
import type { AuthenticatedEnv } from '../app-env';
import { missingToken } from '../errors/http-problem';
import { withFragment } from '../openapi/route-description';

/** The credentials of `Authorization: Bearer <token>`; any other scheme counts as none. */
export function bearerToken(c: Context): string {
  const match = /^Bearer[ \t]+(.+)$/i.exec(c.req.header('authorization') ?? '');
  const token = match?.[1]?.trim();
  if (!token) throw missingToken();
  return token;
}

/**
 * Lets a request through only with a valid access token of `auth`'s kind of account: the domain
 * refuses invalid or revoked tokens (401) and tokens of the other kind (403).
 */
export function bearerAuth(auth: AuthService) {
  const middleware = createMiddleware<AuthenticatedEnv>(async (c, next) => {
    c.set('identity', await auth.authenticate(bearerToken(c)));
    await next();
  });
  return withFragment(middleware, {
    security: [{ bearer: [] }],
    errors: ['missing_token', 'invalid_token', 'forbidden'],
  });
}
