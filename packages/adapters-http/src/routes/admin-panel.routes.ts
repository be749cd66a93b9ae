import { serveStatic } from '@hono/node-server/serve-static';
import { Hono } from 'hono';
import { createMiddleware } from 'hono/factory';
import type { AppEnv } from '../app-env';
import { pageRoute } from '../openapi/route-description';

export const PANEL_PATH = '/admin';

/** The panel loads nothing from elsewhere and runs no inline code; nobody may frame it. */
export const PANEL_CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "frame-ancestors 'none'",
  "base-uri 'self'",
  "form-action 'self'",
].join('; ');

/** Vite names assets by content hash, so they never change; index.html must always be revalidated. */
const panelHeaders = createMiddleware<AppEnv>(async (c, next) => {
  await next();
  c.header('Content-Security-Policy', PANEL_CONTENT_SECURITY_POLICY);
  c.header('X-Frame-Options', 'DENY');
  // The files never choose their own caching: what is there is the API's default, `no-store`.
  if (c.res.ok) {
    const immutable = c.req.path.startsWith(`${PANEL_PATH}/assets/`);
    c.header('Cache-Control', immutable ? 'public, max-age=31536000, immutable' : 'no-cache');
  }
});

/** A path whose last segment has an extension asks for a file: missing, it is a 404, not the app. */
const looksLikeFile = (path: string) => /\.[^/]*$/.test(path);

/**
 * The built admin panel at /admin/: its files, and index.html for every other path under it so
 * that client-side routes such as /admin/login load the app. Nothing outside /admin is touched,
 * so unknown API routes stay JSON 404s.
 */
export function adminPanelRoutes(panelRoot: string) {
  const files = serveStatic<AppEnv>({ root: panelRoot, rewriteRequestPath: (path) => path.slice(PANEL_PATH.length) });
  const index = serveStatic<AppEnv>({ root: panelRoot, path: 'index.html' });
  return new Hono<AppEnv>()
    .use(PANEL_PATH, panelHeaders)
    .use(`${PANEL_PATH}/*`, panelHeaders)
    .get(PANEL_PATH, pageRoute, (c) => c.redirect(`${PANEL_PATH}/`, 301))
    .get(`${PANEL_PATH}/*`, pageRoute, files, async (c, next) => (looksLikeFile(c.req.path) ? next() : index(c, next)));
}
