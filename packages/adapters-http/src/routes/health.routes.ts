import { Hono } from 'hono';
import * as v from 'valibot';
import type { AppEnv } from '../app-env';
import { describeRoute } from '../openapi/route-description';

/**
 * Liveness: 200 whenever the process answers at all. It checks no dependency on purpose: a
 * database outage makes the instance unready (/ready), and restarting it would not help.
 */
export function healthRoutes() {
  return new Hono<AppEnv>().get(
    '/health',
    describeRoute({
      operationId: 'health',
      summary: 'Liveness: the process answers',
      tags: ['Operations'],
      responses: { 200: { description: 'Alive.', schema: v.object({ status: v.literal('ok') }) } },
    }),
    (c) => c.json({ status: 'ok' as const }, 200, { 'Cache-Control': 'no-store' }),
  );
}
