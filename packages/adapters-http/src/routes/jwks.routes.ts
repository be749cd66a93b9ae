import { Hono } from 'hono';
import * as v from 'valibot';
import type { AppEnv } from '../app-env';
import type { HttpAppDeps } from '../http-app-deps';
import { describeRoute } from '../openapi/route-description';

/**
 * How long a verifier may keep the JWKS: long enough that verifiers do not fetch on every token.
 * A rotation publishes the new key at least this long before it signs (the key ring's
 * activation lead derives from it), so no cached copy ever lacks the key of a token.
 */
export const JWKS_MAX_AGE_SECONDS = 300;
export const JWKS_CACHE_CONTROL = `public, max-age=${JWKS_MAX_AGE_SECONDS}`;

export function jwksRoutes({ jwks }: Pick<HttpAppDeps, 'jwks'>) {
  return new Hono<AppEnv>().get(
    '/.well-known/jwks.json',
    describeRoute({
      operationId: 'jwks',
      summary: 'The public keys that verify every token',
      description:
        "A JWK Set (RFC 7517). Each token names its key in the header's `kid`. A new key is listed before it signs (longer ahead than the `max-age` a verifier may cache this set); a rotated-out key stays until its tokens expire.",
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
