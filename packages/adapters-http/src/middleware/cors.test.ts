import { describe, expect, it } from 'vitest';
import { bearer, createTestApp, expectNoSecrets, jsonInit, loginDocument, type TestApp } from '../testing';

const APP = 'https://app.example.com';
const DEV = 'http://localhost:5173';
const PASSWORD = 'user-password-1';

/** The Access-Control-* headers of a response, by lower-case name. */
const corsHeaders = (response: Response) =>
  Object.fromEntries([...response.headers].filter(([name]) => name.startsWith('access-control-')));

const varyOf = (response: Response) => (response.headers.get('vary') ?? '').split(/\s*,\s*/);

async function appWithUser(corsOrigins: string[] = [APP, DEV]) {
  const t = await createTestApp({ corsOrigins });
  const user = await t.createUser({ email: 'ann@example.com' });
  const { accessToken, refreshToken } = await t.loginUser('ann@example.com', PASSWORD);
  return { t, user, accessToken, refreshToken, secrets: [PASSWORD, user.passwordHash] };
}

const preflight = (t: TestApp, path: string, origin: string, method = 'PATCH') =>
  t.app.request(path, {
    method: 'OPTIONS',
    headers: {
      Origin: origin,
      'Access-Control-Request-Method': method,
      'Access-Control-Request-Headers': 'authorization,content-type,if-match',
    },
  });

describe('CORS for the end-user and public routes', () => {
  it.each([
    ['GET /v1/users/me', '/v1/users/me', 'GET', APP],
    ['GET /v1/users/me/sessions', '/v1/users/me/sessions', 'GET', DEV],
    ['GET /.well-known/jwks.json', '/.well-known/jwks.json', 'GET', APP],
    ['GET /v1/openapi.json', '/v1/openapi.json', 'GET', APP],
  ])(
    '%s from a listed origin: 200 with that origin echoed, Vary: Origin, the headers a client reads exposed, no credentials',
    async (_, path, method, origin) => {
      const { t, accessToken, secrets } = await appWithUser();
      const response = await t.app.request(path, { method, headers: { Origin: origin, ...bearer(accessToken) } });
      expect(response.status).toBe(200);
      expect(corsHeaders(response)).toEqual({
        'access-control-allow-origin': origin,
        'access-control-expose-headers': 'ETag, Location, Retry-After, WWW-Authenticate, X-Request-Id',
      });
      expect(varyOf(response)).toContain('Origin');
      await expectNoSecrets(response, secrets);
    },
  );

  it('login and refresh from a listed origin answer the session record readable by the app, and set no cookie', async () => {
    const { t, refreshToken, secrets } = await appWithUser();
    const login = await t.app.request(
      '/v1/login',
      jsonInit('POST', loginDocument('ann@example.com', PASSWORD), { Origin: APP }),
    );
    const refresh = await t.app.request('/v1/refresh', jsonInit('POST', { refreshToken }, { Origin: APP }));
    for (const response of [login, refresh]) {
      expect(response.status).toBe(200);
      expect(response.headers.get('access-control-allow-origin')).toBe(APP);
      expect(response.headers.get('access-control-allow-credentials')).toBeNull();
      expect(response.headers.getSetCookie()).toEqual([]);
      await expectNoSecrets(response, secrets);
    }
  });

  it.each([
    ['another host', 'https://evil.example.com'],
    ['another port', 'http://localhost:5174'],
    ['another scheme', 'http://app.example.com'],
    ['the same host by address', 'http://127.0.0.1:5173'],
    ['a trailing slash', `${APP}/`],
    ['another case', 'https://APP.example.com'],
    ['the opaque origin', 'null'],
  ])('an origin not listed (%s) gets the same answer without any Access-Control-* header', async (_, origin) => {
    const { t, accessToken, secrets } = await appWithUser();
    const response = await t.app.request('/v1/users/me', { headers: { Origin: origin, ...bearer(accessToken) } });
    expect(response.status).toBe(200);
    expect(corsHeaders(response)).toEqual({});
    expect(varyOf(response)).toContain('Origin');
    await expectNoSecrets(response, secrets);
  });

  it('a preflight from a listed origin → 204 with the methods and headers the end-user routes take, and a max-age', async () => {
    const { t } = await appWithUser();
    const response = await preflight(t, '/v1/users/me', APP);
    expect(response.status).toBe(204);
    expect(await response.text()).toBe('');
    expect(corsHeaders(response)).toEqual({
      'access-control-allow-origin': APP,
      'access-control-allow-methods': 'GET, HEAD, POST, PATCH, DELETE',
      'access-control-allow-headers': 'Authorization, Content-Type, If-Match, X-Request-Id',
      'access-control-max-age': '600',
    });
    expect(varyOf(response)).toContain('Origin');
    expect(response.headers.get('x-request-id')).not.toBeNull();
  });

  it('a preflight from an origin not listed is an OPTIONS like any other: 405 method_not_allowed, no Access-Control-* header', async () => {
    const { t } = await appWithUser();
    const response = await preflight(t, '/v1/users/me', 'https://evil.example.com');
    expect(response.status).toBe(405);
    expect(corsHeaders(response)).toEqual({});
    expect((await response.json()).errors[0]).toMatchObject({ status: '405', code: 'method_not_allowed' });
  });

  it('an OPTIONS from a listed origin that is no preflight (no Access-Control-Request-Method) → 405, readable', async () => {
    const { t } = await appWithUser();
    const response = await t.app.request('/v1/users/me', { method: 'OPTIONS', headers: { Origin: APP } });
    expect(response.status).toBe(405);
    expect(response.headers.get('access-control-allow-origin')).toBe(APP);
  });

  describe('error answers carry the CORS headers, so the app can read the JSON:API error', () => {
    it.each([
      ['no token → 401 missing_token', () => ({ path: '/v1/users/me', init: {} }), 401, 'missing_token'],
      [
        'a form body → 415',
        () => ({ path: '/v1/login', init: { method: 'POST', headers: { 'Content-Type': 'text/plain' }, body: 'x' } }),
        415,
        'unsupported_media_type',
      ],
      [
        'malformed JSON → 400',
        () => ({ path: '/v1/refresh', init: jsonInit('POST', undefined) }),
        400,
        'malformed_json',
      ],
      ['an unknown path → 404', () => ({ path: '/v1/nothing-here', init: {} }), 404, 'route_not_found'],
      [
        'PUT on /v1/users/me → 405',
        () => ({ path: '/v1/users/me', init: { method: 'PUT' } }),
        405,
        'method_not_allowed',
      ],
    ])('%s', async (_, request, status, code) => {
      const { t, secrets } = await appWithUser();
      const { path, init } = request() as { path: string; init: RequestInit };
      const response = await t.app.request(path, { ...init, headers: { ...(init.headers ?? {}), Origin: APP } });
      expect(response.status).toBe(status);
      expect(response.headers.get('access-control-allow-origin')).toBe(APP);
      expect(response.headers.get('access-control-expose-headers')).toContain('WWW-Authenticate');
      await expectNoSecrets(response, secrets);
      expect((await response.json()).errors[0]).toMatchObject({ status: String(status), code });
    });

    it('a throttled login → 429 whose Retry-After the app may read', async () => {
      const { t, secrets } = await appWithUser();
      let response: Response | undefined;
      for (let attempt = 0; attempt < 20 && response?.status !== 429; attempt++) {
        response = await t.app.request(
          '/v1/login',
          jsonInit('POST', loginDocument('ann@example.com', 'wrong-password'), { Origin: APP }),
        );
      }
      expect(response?.status).toBe(429);
      expect(response?.headers.get('access-control-allow-origin')).toBe(APP);
      expect(response?.headers.get('access-control-expose-headers')).toContain('Retry-After');
      expect(Number(response?.headers.get('retry-after'))).toBeGreaterThan(0);
      await expectNoSecrets(response!, secrets);
    });
  });

  describe('the admin API and panel stay same-origin', () => {
    it.each([
      ['POST /v1/admin/login', '/v1/admin/login', 'POST'],
      ['GET /v1/admin/users', '/v1/admin/users', 'GET'],
      ['GET /admin/', '/admin/', 'GET'],
    ])('%s from a listed origin: no Access-Control-* header, no Vary: Origin', async (_, path, method) => {
      const { t } = await appWithUser();
      const admin = await t.loginAdmin();
      const init =
        method === 'POST'
          ? jsonInit('POST', loginDocument('admin@example.com', 'admin-password-1'), { Origin: APP })
          : { headers: { Origin: APP, ...bearer(admin.accessToken) } };
      const response = await t.app.request(path, init);
      expect(corsHeaders(response)).toEqual({});
      expect(varyOf(response)).not.toContain('Origin');
      await expectNoSecrets(response, ['admin-password-1']);
    });

    it('a preflight to the admin API from a listed origin → 405 without Access-Control-* headers', async () => {
      const { t } = await appWithUser();
      const response = await preflight(t, '/v1/admin/users', APP, 'GET');
      expect(response.status).toBe(405);
      expect(corsHeaders(response)).toEqual({});
    });

    it('the only cookie-authenticated routes (admin refresh, revoke) never allow credentials to another origin', async () => {
      const { t } = await appWithUser();
      const admin = await t.loginAdmin();
      const cookie = `uas_admin_refresh=${admin.refreshToken}`;
      const refresh = await t.app.request('/v1/admin/refresh', {
        method: 'POST',
        headers: { Origin: APP, Cookie: cookie },
      });
      // The CSRF rule still refuses it: the listed origin is not the service's own.
      expect(refresh.status).toBe(403);
      expect((await refresh.json()).errors[0].code).toBe('cross_site_request');
      expect(corsHeaders(refresh)).toEqual({});
    });
  });

  it('without CORS_ORIGINS nothing changes: no Access-Control-* header, no Vary, OPTIONS → 405', async () => {
    const { t, accessToken } = await appWithUser([]);
    const response = await t.app.request('/v1/users/me', { headers: { Origin: APP, ...bearer(accessToken) } });
    expect(response.status).toBe(200);
    expect(corsHeaders(response)).toEqual({});
    expect(response.headers.get('vary')).toBeNull();
    expect((await preflight(t, '/v1/users/me', APP)).status).toBe(405);
  });
});
