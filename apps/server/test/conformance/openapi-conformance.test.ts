import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AdminCredentials } from '@uas/domain';
import type { ErrorDocument } from '@uas/client';
import {
  type Credentials,
  documentedCodes,
  documents,
  type DocumentedOperation,
  type GeneratedRequest,
  type OpenApiDocument,
  operationsOf,
  send,
  spoil,
  type Spoiling,
  spoilingsFor,
  validRequest,
} from '../support/openapi-requests';
import { isPrismProblem, type PrismProxy, responseViolations, startPrismProxy } from '../support/prism-proxy';
import { ServerProcesses, type ServerProcess } from '../../../../scripts/release-process';
import { readAdminKeyFile } from '../support/admin-api';
import { BACKENDS, testDatabaseEnv } from '../support/test-application';

/** Bounded so that each backend's run stays well under two minutes on a busy machine. */
const GENERATED_RUNS = 400;
const TIME_LIMIT_MS = 45_000;
const METRICS_TOKEN = 'conformance-metrics-token-of-32-characters';
const USER = { email: 'conformance@example.com', password: 'conformance-password-1' };
const JSON_API = 'application/vnd.api+json';

/**
 * The OpenAPI document held to the running service by tools that did not write it: Stoplight
 * Prism, as a validating proxy, checks every request and response of a walk through every
 * operation; json-schema-faker samples requests from the document's schemas, fast-check picks and
 * spoils them, and every answer must be one the document gives, never a server error.
 */
describe.each(BACKENDS)('the OpenAPI document against the running service on %s', { timeout: 120_000 }, (backend) => {
  const servers = new ServerProcesses();
  let removeDatabase: () => Promise<void> = async () => {};
  let server: ServerProcess;
  let strict: PrismProxy;
  let observing: PrismProxy;
  let document: OpenApiDocument;
  let admin: AdminCredentials;

  beforeAll(async () => {
    const dir = await servers.tempDir();
    const database = await testDatabaseEnv(backend, dir);
    removeDatabase = database.remove;
    const env = {
      ...database.env,
      ADMIN_KEY_PATH: join(dir, 'admin.key'),
      METRICS_TOKEN,
      // Generated logins fail by the hundred from one address; throttling is not what this checks.
      LOGIN_FAILURES_PER_ACCOUNT: '100000',
      LOGIN_FAILURES_PER_ADDRESS: '100000',
    };
    server = await servers.start(env);
    admin = await readAdminKeyFile(env.ADMIN_KEY_PATH);
    document = (await (await fetch(`${server.url}/v1/openapi.json`)).json()) as OpenApiDocument;
    const documentPath = join(dir, 'openapi.json');
    await writeFile(documentPath, JSON.stringify(document));
    [strict, observing] = await Promise.all([
      startPrismProxy(documentPath, server.url, { errors: true }),
      startPrismProxy(documentPath, server.url, { errors: false }),
    ]);
  }, 120_000);

  afterAll(async () => {
    await Promise.all([strict?.stop(), observing?.stop()]);
    await servers.cleanup();
    await removeDatabase();
  });

  const operation = (method: string, template: string) => {
    const found = document.paths[template]?.[method.toLowerCase()];
    if (!found) throw new Error(`${method} ${template} is not in the document`);
    return found;
  };

  /** One exchange through the strict proxy: Prism found nothing wrong, and the status is documented. */
  async function call(
    method: string,
    template: string,
    init: { path?: string; token?: string; body?: unknown; type?: string; headers?: Record<string, string> } = {},
  ) {
    const headers: Record<string, string> = { ...init.headers };
    if (init.token) headers.Authorization = `Bearer ${init.token}`;
    if (init.body !== undefined) headers['Content-Type'] = init.type ?? JSON_API;
    const body =
      init.body === undefined ? undefined : typeof init.body === 'string' ? init.body : JSON.stringify(init.body);
    const response = await send(strict.url, { method, path: init.path ?? template, headers, body });
    const text = await response.text();
    expect(isPrismProblem(response), `${method} ${template}: ${text}`).toBe(false);
    expect(documents(operation(method, template), response.status), `${method} ${template} → ${response.status}`).toBe(
      true,
    );
    return { status: response.status, headers: response.headers, text, json: () => JSON.parse(text) };
  }

  it('walks through every operation with Prism checking each request and response', async () => {
    for (const template of ['/health', '/ready', '/.well-known/jwks.json', '/v1/openapi.json']) {
      expect((await call('GET', template)).status).toBe(200);
    }
    expect((await call('GET', '/metrics', { token: METRICS_TOKEN })).status).toBe(200);
    expect((await call('GET', '/metrics', { token: 'wrong' })).status).toBe(401);

    const login = { data: { type: 'users', attributes: admin } };
    const session = (await call('POST', '/v1/admin/login', { body: login })).json().data;
    const token = session.attributes.access_token as string;
    const wrong = { data: { type: 'users', attributes: { ...admin, password: 'not the password' } } };
    expect((await call('POST', '/v1/admin/login', { body: wrong })).status).toBe(401);

    const created = await call('POST', '/v1/admin/users', {
      token,
      body: { data: { type: 'users', attributes: USER } },
    });
    expect(created.status).toBe(201);
    const id = created.json().data.id as string;
    expect(
      (await call('POST', '/v1/admin/users', { token, body: { data: { type: 'users', attributes: USER } } })).status,
    ).toBe(409);
    const list = `/v1/admin/users?page[size]=2&search[email]=${encodeURIComponent('conformance')}`;
    expect((await call('GET', '/v1/admin/users', { token, path: list })).status).toBe(200);
    const read = await call('GET', '/v1/admin/users/{id}', { token, path: `/v1/admin/users/${id}` });
    const changed = await call('PATCH', '/v1/admin/users/{id}', {
      token,
      path: `/v1/admin/users/${id}`,
      headers: { 'If-Match': read.headers.get('etag') ?? '' },
      body: { data: { type: 'users', id, attributes: { name: 'Conformance', metadata: { plan: 'pro' } } } },
    });
    expect(changed.status).toBe(200);
    const stale = { 'If-Match': read.headers.get('etag') ?? '' };
    expect(
      (await call('DELETE', '/v1/admin/users/{id}', { token, path: `/v1/admin/users/${id}`, headers: stale })).status,
    ).toBe(412);
    const unknown = '/v1/admin/users/00000000-0000-4000-8000-000000000000';
    expect((await call('GET', '/v1/admin/users/{id}', { token, path: unknown })).status).toBe(404);

    const exported = await call('GET', '/v1/admin/users/export', {
      token,
      path: '/v1/admin/users/export?search[email]=conformance&with_password_hashes=true',
    });
    expect(exported.status).toBe(200);
    const imported = await call('POST', '/v1/admin/users/import', {
      token,
      path: '/v1/admin/users/import?dry_run=true',
      type: 'application/x-ndjson',
      body: exported.text,
    });
    expect(imported.json().data.attributes.skipped).toBe(1);

    const user = (await call('POST', '/v1/login', { body: { data: { type: 'users', attributes: USER } } })).json().data
      .attributes;
    expect((await call('GET', '/v1/users/me', { token: user.access_token })).status).toBe(200);
    const self = { data: { type: 'users', attributes: { metadata: { locale: 'fr' } } } };
    expect((await call('PATCH', '/v1/users/me', { token: user.access_token, body: self })).status).toBe(200);
    const renewed = (await call('POST', '/v1/refresh', { body: { refreshToken: user.refresh_token } })).json().data
      .attributes;
    expect((await call('POST', '/v1/refresh', { body: { refreshToken: 'not-a-token' } })).status).toBe(401);
    expect(
      (
        await call('DELETE', '/v1/refresh', {
          token: renewed.access_token,
          body: { refreshToken: renewed.refresh_token },
        })
      ).status,
    ).toBe(204);
    expect((await call('GET', '/v1/admin/users', { token: user.access_token })).status).toBe(403);

    let refreshToken = session.attributes.refresh_token as string;
    for (const template of ['/v1/admin/refresh', '/v1/admin/token/refresh']) {
      const next = (await call('POST', template, { body: { refreshToken } })).json().data.attributes;
      refreshToken = next.refresh_token;
    }
    const spare = (await call('POST', '/v1/admin/login', { body: login })).json().data.attributes;
    expect((await call('DELETE', '/v1/admin/refresh', { token, body: { refreshToken } })).status).toBe(204);
    expect(
      (await call('DELETE', '/v1/admin/token/refresh', { token, body: { refreshToken: spare.refresh_token } })).status,
    ).toBe(204);
    expect((await call('DELETE', '/v1/admin/users/{id}', { token, path: `/v1/admin/users/${id}` })).status).toBe(204);
    expect(
      (await call('DELETE', '/v1/admin/logout/{id}', { token, path: `/v1/admin/logout/${session.id}` })).status,
    ).toBe(204);
    expect((await call('GET', '/v1/admin/users', { token })).status).toBe(401);
  });

  /** Fresh sessions and users for the generated requests (the walk above ended its own). */
  let run = 0;
  async function credentials(): Promise<Credentials> {
    run += 1;
    const login = (path: string, attributes: unknown) =>
      send(server.url, {
        method: 'POST',
        path,
        headers: { 'Content-Type': JSON_API },
        body: JSON.stringify({ data: { type: 'users', attributes } }),
      }).then(async (response) => (await response.json()).data.attributes.access_token as string);
    const adminToken = await login('/v1/admin/login', admin);
    const ids: string[] = [];
    for (const n of [1, 2, 3]) {
      const response = await send(server.url, {
        method: 'POST',
        path: '/v1/admin/users',
        headers: { 'Content-Type': JSON_API, Authorization: `Bearer ${adminToken}` },
        body: JSON.stringify({
          data: { type: 'users', attributes: { email: `generated${run}-${n}@example.com`, password: USER.password } },
        }),
      });
      ids.push((await response.json()).data.id);
    }
    const userToken = await login('/v1/login', { email: `generated${run}-1@example.com`, password: USER.password });
    return { adminToken, userToken, metricsToken: METRICS_TOKEN, ids };
  }

  /** Operations that would end the sessions the generated requests use: they get fresh UUIDs only. */
  const generatable = (operations: DocumentedOperation[]) =>
    operations.filter(({ template }) => template !== '/v1/admin/logout/{id}');

  it('answers requests generated from the document as the document says, never with a server error', async () => {
    const given = await credentials();
    const operations = generatable(operationsOf(document));
    const seen = new Map<number, number>();
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...operations), fc.nat(), async (documented, seed) => {
        const request = validRequest(documented, document, given, seed);
        const response = await send(strict.url, request);
        const text = await response.text();
        const what = `${request.method} ${request.path} ${request.body ?? ''} → ${response.status} ${text.slice(0, 500)}`;
        seen.set(response.status, (seen.get(response.status) ?? 0) + 1);
        expect(isPrismProblem(response), what).toBe(false);
        expect(response.status, what).toBeLessThan(500);
        expect(documents(documented.operation, response.status), what).toBe(true);
      }),
      { numRuns: GENERATED_RUNS, interruptAfterTimeLimit: TIME_LIMIT_MS },
    );
    // Generated requests that pass validation get through: some succeed, not only refusals.
    expect(
      [...seen.keys()].some((status) => status < 300),
      JSON.stringify([...seen]),
    ).toBe(true);
  });

  /**
   * Prism (5.14) never answers a JSON request whose body does not parse, or parses to a falsy
   * value (null, false, 0, ""): those go to the service directly, checked here alone.
   */
  const prismCarries = (spoiling: Spoiling) =>
    spoiling.kind !== 'malformed-json' && !(spoiling.kind === 'random-body' && !spoiling.body);

  it('refuses generated requests that break the document with a documented 4xx and a conforming body', async () => {
    const given = await credentials();
    // An operation that takes any query is an identity provider's callback, with no id, body or
    // token besides: nothing to spoil.
    const operations = generatable(operationsOf(document)).filter(({ operation }) => !operation['x-open-query']);
    const spoiled = fc
      .constantFrom(...operations)
      .chain((documented) => fc.tuple(fc.constant(documented), fc.nat(), spoilingsFor(documented)));
    await fc.assert(
      fc.asyncProperty(spoiled, async ([documented, seed, spoiling]) => {
        const request: GeneratedRequest = spoil(validRequest(documented, document, given, seed), spoiling);
        const response = await send(prismCarries(spoiling) ? observing.url : server.url, request);
        const text = await response.text();
        const what = `${spoiling.kind}: ${request.method} ${request.path} ${request.body ?? ''} → ${response.status} ${text.slice(0, 500)}`;
        expect(response.status, what).toBeGreaterThanOrEqual(400);
        expect(response.status, what).toBeLessThan(500);
        expect(documents(documented.operation, response.status), what).toBe(true);
        expect(response.headers.get('content-type'), what).toMatch(/^application\/json/);
        expect(responseViolations(response), what).toEqual([]);
        const codes = (JSON.parse(text) as ErrorDocument).errors.map((error) => error.code);
        expect(documentedCodes(documented.operation, response.status), what).toEqual(expect.arrayContaining(codes));
      }),
      { numRuns: GENERATED_RUNS, interruptAfterTimeLimit: TIME_LIMIT_MS },
    );
  });

  it('answers a method a documented path does not serve with 405 and Allow', async () => {
    for (const [template, item] of Object.entries(document.paths)) {
      if (template.includes('{') || template === '/v1/admin/users/import' || template === '/v1/admin/users/export')
        continue;
      const served = Object.keys(item).map((method) => method.toUpperCase());
      const method = ['PUT', 'PATCH', 'DELETE', 'POST'].find((name) => !served.includes(name));
      if (!method) continue;
      const response = await send(server.url, { method, path: template, headers: {} });
      expect(response.status, `${method} ${template}`).toBe(405);
      expect(response.headers.get('allow')?.split(', ')).toEqual(expect.arrayContaining(served));
      expect((await response.json()).errors[0].code).toBe('method_not_allowed');
    }
  });
});
