import { Hono } from 'hono';
import type { AppEnv } from '../app-env';
import type { HttpAppDeps } from '../http-app-deps';

/**
 * Short enough that a rotated-in key is picked up within minutes (the previous key keeps verifying
 * until its tokens expire), long enough that verifiers do not fetch on every token.
 */
export const JWKS_CACHE_CONTROL = 'public, max-age=300';

export function jwksRoutes({ jwks }: Pick<HttpAppDeps, 'jwks'>) {
  return new Hono<AppEnv>().get('/.well-known/jwks.json', async (c) =>
    c.json(await jwks(), 200, { 'Cache-Control': JWKS_CACHE_CONTROL }),
  );
}
