import { Hono } from 'hono';
import * as v from 'valibot';
import type { AppEnv } from '../app-env';
import type { HttpAppDeps } from '../http-app-deps';
import { describeRoute } from '../openapi/route-description';

/**
 * Short enough that a rotated-in key is picked up within minutes (the previous key keeps verifying
 * until its tokens expire), long enough that verifiers do not fetch on every token.
 */
export const JWKS_CACHE_CONTROL = 'public, max-age=300';

export function jwksRoutes({ jwks }: Pick<HttpAppDeps, 'jwks'>) {
  return new Hono<AppEnv>().get(
    '/.well-known/jwks.json',
    describeRoute({
      operationId: 'jwks',
      summary: 'The public keys that verify every token',
      description:
        "A JWK Set (RFC 7517). Each token names its key in the header's `kid`; a rotated-out key stays until its tokens expire.",
      tags: ['Operations'],
      responses: {
        200: {
          description: 'The JWK Set.',
          schema: v.object({
            keys: v.array(v.pipe(v.record(v.string(), v.unknown()), v.description('A public JWK.'))),
          }),
        },
      },
    }),
    async (c) => c.json(await jwks(), 200, { 'Cache-Control': JWKS_CACHE_CONTROL }),
  );
}
