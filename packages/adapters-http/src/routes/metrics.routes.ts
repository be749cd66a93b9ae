import { InvalidTokenError } from '@uas/domain';
import { Hono } from 'hono';
import { timingSafeEqual } from 'hono/utils/buffer';
import type { AppEnv } from '../app-env';
import { describeRoute } from '../openapi/route-description';
import { bearerToken } from '../middleware/bearer-auth';
import type { MetricsEndpoint } from '../metrics/http-metrics';

/**
 * Prometheus metrics for a scraper that presents the configured token: they tell who logs in how
 * often and how busy each instance is, which is not for everyone to read.
 */
export function metricsRoutes({ metrics, token }: MetricsEndpoint) {
  return new Hono<AppEnv>().get(
    '/metrics',
    describeRoute({
      operationId: 'metrics',
      summary: 'Prometheus metrics',
      description: 'Served only when the operator configured a metrics token.',
      tags: ['Operations'],
      security: [{ metricsToken: [] }],
      responses: { 200: { description: 'The Prometheus text exposition.', mediaType: 'text/plain' } },
      errors: ['missing_token', 'invalid_token'],
    }),
    async (c) => {
      // Hono's comparison hashes both first: neither the token's content nor its length shows in the timing.
      if (!(await timingSafeEqual(bearerToken(c), token))) throw new InvalidTokenError();
      const { contentType, body } = await metrics.exposition();
      return c.body(body, 200, { 'Content-Type': contentType, 'Cache-Control': 'no-store' });
    },
  );
}
