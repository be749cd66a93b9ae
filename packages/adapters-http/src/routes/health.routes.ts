import { Hono } from 'hono';
import type { AppEnv } from '../app-env';

/**
 * Liveness: 200 whenever the process answers at all. It checks no dependency on purpose: a
 * database outage makes the instance unready (/ready), and restarting it would not help.
 */
export function healthRoutes() {
  return new Hono<AppEnv>().get('/health', (c) =>
    c.json({ status: 'ok' as const }, 200, { 'Cache-Control': 'no-store' }),
  );
}
