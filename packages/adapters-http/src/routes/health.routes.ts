import { Hono } from 'hono';
import type { AppEnv } from '../app-env';
import type { HttpAppDeps } from '../http-app-deps';

/** Liveness and readiness in one: 200 when the database answers, 503 when it does not. */
export function healthRoutes({ health, logger }: Pick<HttpAppDeps, 'health' | 'logger'>) {
  return new Hono<AppEnv>().get('/health', async (c) => {
    try {
      await health();
      return c.json({ status: 'ok' as const }, 200);
    } catch (error) {
      const { name, message } = error instanceof Error ? error : new Error(String(error));
      logger.warn('health check failed', { requestId: c.get('requestId'), error: name, message });
      return c.json({ status: 'unavailable' as const }, 503);
    }
  });
}
