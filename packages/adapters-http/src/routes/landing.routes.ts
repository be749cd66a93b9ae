import { Hono } from 'hono';
import type { AppEnv } from '../app-env';
import { pageRoute } from '../openapi/route-description';
import { PANEL_PATH } from './admin-panel.routes';
import { API_REFERENCE_PATH, pageHeaders } from './api-reference.routes';
import { OPENAPI_PATH } from './openapi.routes';

const link = (href: string, text: string) => `<li><a href="${href}">${text}</a></li>`;

/** Plain links, no script and no style: the panel's CSP holds as it is. */
const page = (withPanel: boolean) => `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>User account service</title>
</head>
<body>
<h1>User account service</h1>
<ul>
${withPanel ? link(`${PANEL_PATH}/`, 'Admin panel') : ''}
${link(API_REFERENCE_PATH, 'API reference')}
${link(OPENAPI_PATH, 'OpenAPI document')}
</ul>
</body>
</html>
`;

/**
 * `GET /`: where someone who opened the service's address in a browser finds the panel and the
 * API reference. Only `/` itself: every other unknown path stays a JSON 404.
 */
export function landingRoutes(withPanel: boolean) {
  const html = page(withPanel);
  return new Hono<AppEnv>().get('/', pageRoute, pageHeaders, (c) => c.html(html));
}
