import { tmpdir } from 'node:os';
import { Validator } from '@seriousme/openapi-schema-validator';
import { describe, expect, it } from 'vitest';
import type { HttpMetrics } from '../metrics/http-metrics';
import { createTestApp } from '../testing';
import { apiRoutes } from './openapi-document';

/** The app with every optional part on (metrics, panel), so that every route it can serve is listed. */
async function fullApp() {
  const metrics: HttpMetrics = {
    requestFinished: () => {},
    loginFinished: () => {},
    refreshTokenReused: () => {},
    exposition: async () => ({ contentType: 'text/plain', body: '' }),
  };
  return (await createTestApp({ metricsEndpoint: { metrics, token: 'scrape-token' }, panelRoot: tmpdir() })).app;
}

async function servedDocument() {
  const response = await (await fullApp()).request('/v1/openapi.json');
  expect(response.status).toBe(200);
  expect(response.headers.get('content-type')).toMatch(/^application\/json/);
  return (await response.json()) as { openapi: string; paths: Record<string, Record<string, unknown>> };
}

const FORM = 'application/x-www-form-urlencoded';

const documentedOperations = (paths: Record<string, Record<string, unknown>>) =>
  Object.entries(paths).flatMap(([path, item]) => Object.keys(item).map((method) => `${method.toUpperCase()} ${path}`));

describe('GET /v1/openapi.json', () => {
  it('is a valid OpenAPI 3.1 document', async () => {
    const document = await servedDocument();
    expect(document.openapi).toBe('3.1.0');
    const result = await new Validator().validate(document);
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
  });
});

describe('route coverage', () => {
  it('describes every route the app serves, pages for browsers aside', async () => {
    const undescribed = apiRoutes((await fullApp()).routes)
      .filter((route) => !route.page && route.description === undefined)
      .map((route) => `${route.method} ${route.path}`);
    expect(
      undescribed,
      'give each route describeRoute({...}) as its first handler, as admin-users.routes.ts does',
    ).toEqual([]);
  });

  it('describes no route the app does not serve, and leaves none out', async () => {
    const app = await fullApp();
    const served = apiRoutes(app.routes)
      .filter((route) => !route.page)
      .map((route) => `${route.method} ${route.path}`);
    expect(documentedOperations((await servedDocument()).paths).sort()).toEqual(served.sort());
  });

  it('reaches a route, not the fallback, with every documented method and path', async () => {
    const app = await fullApp();
    const unrouted: string[] = [];
    for (const operation of documentedOperations((await servedDocument()).paths)) {
      const [method, path] = operation.split(' ') as [string, string];
      const response = await app.request(path.replace('{id}', '00000000-0000-4000-8000-000000000000'), { method });
      const body = response.status === 404 ? await response.json() : undefined;
      if (body?.errors?.[0]?.code === 'route_not_found') unrouted.push(operation);
    }
    expect(unrouted).toEqual([]);
  });
});

describe('query parameters', () => {
  it('refuses one the endpoint does not list, on every documented endpoint alike, before authentication', async () => {
    const app = await fullApp();
    const answers = new Set<string>();
    const { paths } = await servedDocument();
    for (const operation of documentedOperations(paths)) {
      const [method, path] = operation.split(' ') as [string, string];
      const described = paths[path]?.[method.toLowerCase()] as {
        'x-open-query'?: true;
        requestBody?: { content: Record<string, unknown> };
      };
      // An identity provider's callback takes whatever its provider adds, as its document says.
      if (described['x-open-query']) continue;
      const url = `${path.replace('{id}', '00000000-0000-4000-8000-000000000000')}?page[sise]=5`;
      // A form endpoint is asked with a form, as its document says it is posted.
      const form = described.requestBody && FORM in described.requestBody.content;
      const response = await app.request(url, { method, ...(form ? { headers: { 'Content-Type': FORM } } : {}) });
      const body = await response.json();
      answers.add(`${response.status} ${body.errors?.[0]?.code} ${body.errors?.[0]?.source?.parameter}`);
    }
    expect([...answers]).toEqual(['400 invalid_parameter page[sise]']);
  });

  it('still reads the ones it lists', async () => {
    const t = await createTestApp();
    const { accessToken } = await t.loginAdmin();
    const response = await t.app.request('/v1/admin/users?page[size]=1&search[email]=admin', {
      headers: { Authorization: `Bearer ${accessToken}` },
    });
    expect(response.status).toBe(200);
  });
});

describe('methods', () => {
  const METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'];

  it('answers a method a documented path does not serve with 405 and an Allow header that lists exactly what it serves', async () => {
    const app = await fullApp();
    const { paths } = await servedDocument();
    const template = (path: string) => new RegExp(`^${path.replace(/\{\w+\}/g, '[^/]+')}$`);
    const methodsOf = (item: object) => {
      const methods = Object.keys(item).map((method) => method.toUpperCase());
      return methods.includes('GET') ? [...methods, 'HEAD'] : methods;
    };
    for (const [path, item] of Object.entries(paths)) {
      // Only this path's own methods: /v1/admin/users/export is no /v1/admin/users/{id}, as in OpenAPI's matching.
      const documented = methodsOf(item);
      // A method its templated sibling serves reaches that route, which answers for itself.
      const sibling = Object.entries(paths)
        .filter(([other]) => other !== path && template(other).test(path))
        .flatMap(([, other]) => methodsOf(other));
      for (const method of METHODS.filter((name) => !documented.includes(name) && !sibling.includes(name))) {
        const response = await app.request(path.replace('{id}', '00000000-0000-4000-8000-000000000000'), { method });
        expect(response.status, `${method} ${path}`).toBe(405);
        if (method !== 'HEAD') expect((await response.json()).errors[0].code).toBe('method_not_allowed');
        expect(response.headers.get('allow')?.split(', '), `${method} ${path}`).toEqual(documented.sort());
      }
    }
  });

  it.each([
    ['/v1/admin/users/export', 'GET, HEAD'],
    ['/v1/admin/users/import', 'POST'],
    ['/v1/admin/users/00000000-0000-4000-8000-000000000000', 'DELETE, GET, HEAD, PATCH'],
    ['/v1/admin/users', 'GET, HEAD, POST'],
    ['/v1/admin/logout/00000000-0000-4000-8000-000000000000', 'DELETE'],
  ])('OPTIONS %s → 405 Allow: %s, the methods of that path alone', async (path, allow) => {
    const response = await (await fullApp()).request(path, { method: 'OPTIONS' });
    expect(response.status).toBe(405);
    expect(response.headers.get('allow')).toBe(allow);
  });

  it('answers a path nobody serves with 404, whatever the method', async () => {
    const app = await fullApp();
    for (const method of METHODS) {
      const response = await app.request('/v1/nothing-here', { method });
      expect(response.status).toBe(404);
      expect(response.headers.get('allow')).toBeNull();
    }
  });
});
