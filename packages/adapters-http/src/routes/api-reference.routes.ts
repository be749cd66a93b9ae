import { fileURLToPath } from 'node:url';
import { serveStatic } from '@hono/node-server/serve-static';
import { Hono } from 'hono';
import { createMiddleware } from 'hono/factory';
import type { AppEnv } from '../app-env';
import { pageRoute } from '../openapi/route-description';
import { PANEL_CONTENT_SECURITY_POLICY } from './admin-panel.routes';
import { OPENAPI_PATH } from './openapi.routes';

export const API_REFERENCE_PATH = '/docs';

/** Swagger UI's prebuilt script and style, served as they ship. */
const SWAGGER_UI_ROOT = fileURLToPath(new URL('../../node_modules/swagger-ui-dist', import.meta.url));
const SWAGGER_UI_FILES = ['swagger-ui-bundle.js', 'swagger-ui.css'];

/** No inline script or style: the page loads its start-up code as a file, so the panel's CSP holds. */
const PAGE = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>User account service API</title>
<link rel="stylesheet" href="${API_REFERENCE_PATH}/swagger-ui.css">
</head>
<body>
<div id="reference"></div>
<script src="${API_REFERENCE_PATH}/swagger-ui-bundle.js"></script>
<script src="${API_REFERENCE_PATH}/start.js"></script>
</body>
</html>
`;

/** validatorUrl null: the page would otherwise send the document to a validator on the internet. */
const START = `SwaggerUIBundle({ url: ${JSON.stringify(OPENAPI_PATH)}, dom_id: '#reference', validatorUrl: null, deepLinking: true });\n`;

/** The panel's CSP and framing rule for a page served beside it, revalidated on every visit. */
export const pageHeaders = createMiddleware<AppEnv>(async (c, next) => {
  await next();
  c.header('Content-Security-Policy', PANEL_CONTENT_SECURITY_POLICY);
  c.header('X-Frame-Options', 'DENY');
  if (c.res.ok) c.header('Cache-Control', 'no-cache');
});

/** The interactive API reference at /docs: Swagger UI reading GET /v1/openapi.json, under the panel's CSP. */
export function apiReferenceRoutes() {
  const files = serveStatic<AppEnv>({
    root: SWAGGER_UI_ROOT,
    rewriteRequestPath: (path) => path.slice(API_REFERENCE_PATH.length),
  });
  const app = new Hono<AppEnv>()
    .use(API_REFERENCE_PATH, pageHeaders)
    .use(`${API_REFERENCE_PATH}/*`, pageHeaders)
    .get(API_REFERENCE_PATH, pageRoute, (c) => c.html(PAGE))
    // The reference has one address; the slash a hand adds leads to it.
    .get(`${API_REFERENCE_PATH}/`, pageRoute, (c) => c.redirect(API_REFERENCE_PATH, 301))
    .get(`${API_REFERENCE_PATH}/start.js`, pageRoute, (c) =>
      c.body(START, 200, { 'Content-Type': 'text/javascript; charset=utf-8' }),
    );
  for (const file of SWAGGER_UI_FILES) app.get(`${API_REFERENCE_PATH}/${file}`, pageRoute, files);
  return app;
}
