import { Hono } from 'hono';
import type { AppEnv } from '../app-env';
import { notReady } from '../errors/http-problem';
import type { HttpAppDeps } from '../http-app-deps';

/**
 * Readiness, for load balancers and orchestrators: 200 while this instance can serve (database
 * reachable and migrated, signing key loaded), 503 while it cannot or is stopping, so traffic
 * moves to other instances. Liveness (/health) stays 200 meanwhile: nothing to restart.
 */
export function readyRoutes({ ready }: Pick<HttpAppDeps, 'ready'>) {
  return new Hono<AppEnv>().get('/ready', async (c) => {
    const reason = await ready();
    if (reason !== null) throw notReady(reason);
    return c.json({ status: 'ready' as const }, 200, { 'Cache-Control': 'no-store' });
  });
}
