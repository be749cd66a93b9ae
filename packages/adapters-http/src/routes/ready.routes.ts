import { Hono } from 'hono';
import * as v from 'valibot';
import type { AppEnv } from '../app-env';
import { notReady } from '../errors/http-problem';
import type { HttpAppDeps } from '../http-app-deps';
import { describeRoute } from '../openapi/route-description';

/**
 * Readiness, for load balancers and orchestrators: 200 while this instance can serve (database
 * reachable and migrated, signing key loaded), 503 while it cannot or is stopping, so traffic
 * moves to other instances. Liveness (/health) stays 200 meanwhile: nothing to restart.
 */
export function readyRoutes({ ready }: Pick<HttpAppDeps, 'ready'>) {
  return new Hono<AppEnv>().get(
    '/ready',
    describeRoute({
      operationId: 'ready',
      summary: 'Readiness: this instance can serve',
      description:
        '503 while the database is unreachable or unmigrated, no signing key is loaded, or the instance is stopping.',
      tags: ['Operations'],
      responses: { 200: { description: 'Ready.', schema: v.object({ status: v.literal('ready') }) } },
      errors: ['not_ready'],
    }),
    async (c) => {
      const reason = await ready();
      if (reason !== null) throw notReady(reason);
      return c.json({ status: 'ready' as const }, 200, { 'Cache-Control': 'no-store' });
    },
  );
}
