import { describe, expect, it } from 'vitest';
import { REFRESH_COOKIE } from '../session/refresh-cookie';
import {
  ADMIN,
  TEST_POLICY,
  bearer,
  createTestApp,
  expectNoSecrets,
  fromAddress,
  jsonInit,
  loginDocument,
  responseCookies,
  type TestApp,
} from '../testing';

const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const refreshBody = (refreshToken: string) => ({ refreshToken });
const cookieHeader = (token: string) => ({ Cookie: `${REFRESH_COOKIE}=${encodeURIComponent(token)}` });
const SAME_ORIGIN = { Origin: 'http://localhost' };

async function loggedIn(t: TestApp) {
  const { response, accessToken, refreshToken } = await t.loginAdmin();
  const { data } = await response.json();
  return { id: data.id as string, accessToken, refreshToken };
}

describe('POST /v1/admin/login', () => {
  it('returns the session record with the token expiry in seconds, and sets the refresh cookie', async () => {
    const t = await createTestApp();
    const { response } = await t.loginAdmin();
    expect(response.status).toBe(200);
    await expectNoSecrets(response, [ADMIN.password, `plain:${ADMIN.password}`]);
    const body = await response.json();
    expect(body).toEqual({
      data: {
        type: 'users',
        id: t.admin.id,
        attributes: {
          name: 'Administrator',
          email: ADMIN.email,
          created: expect.stringMatching(ISO),
          access_token: expect.any(String),
          access_token_expiry: Math.floor(t.clock.now().getTime() / 1000) + TEST_POLICY.accessTokenSeconds,
          refresh_token: expect.any(String),
        },
      },
    });
    const cookie = responseCookies(response).get(REFRESH_COOKIE);
    expect(cookie?.value).toBe(body.data.attributes.refresh_token);
    expect(Object.fromEntries(cookie?.attributes ?? [])).toEqual({
      'max-age': String(TEST_POLICY.refreshTokenSeconds),
      path: '/v1/admin',
      httponly: '',
      samesite: 'Strict',
    });
  });

  it.each([
    ['over https', 'https://localhost/v1/admin/login', [], {}],
    [
      'behind a trusted TLS-terminating proxy',
      'http://localhost/v1/admin/login',
      ['10.0.0.1'],
      { 'X-Forwarded-Proto': 'https' },
    ],
  ])('marks the cookie Secure %s', async (_, url, trustedProxies, headers) => {
    const t = await createTestApp({ trustedProxies });
    const response = await t.app.request(
      url,
      jsonInit('POST', loginDocument(ADMIN.email, ADMIN.password), headers),
      fromAddress('10.0.0.1'),
    );
    expect(responseCookies(response).get(REFRESH_COOKIE)?.attributes.has('secure')).toBe(true);
  });

  it('does not believe X-Forwarded-Proto from an untrusted client', async () => {
    const t = await createTestApp();
    const response = await t.app.request(
      '/v1/admin/login',
      jsonInit('POST', loginDocument(ADMIN.email, ADMIN.password), { 'X-Forwarded-Proto': 'https' }),
    );
    expect(responseCookies(response).get(REFRESH_COOKIE)?.attributes.has('secure')).toBe(false);
  });

  it.each([
    ['a wrong password', ADMIN.email, 'wrong-password'],
    ['an unknown email', 'nobody@example.com', ADMIN.password],
  ])('answers %s with the same 401 and a Bearer challenge', async (_, email, password) => {
    const t = await createTestApp();
    const response = await t.app.request('/v1/admin/login', jsonInit('POST', loginDocument(email, password)));
    expect(response.status).toBe(401);
    expect(response.headers.get('www-authenticate')).toBe('Bearer');
    expect(await response.json()).toEqual({
      errors: [
        {
          status: '401',
          code: 'invalid_credentials',
          title: 'Invalid credentials',
          detail: 'The email or password is wrong.',
        },
      ],
    });
    expect(response.headers.getSetCookie()).toEqual([]);
  });

  it('throttles failures per client address: 429 with Retry-After, even for the right password', async () => {
    const t = await createTestApp();
    const attempt = (password: string, address: string) =>
      t.app.request('/v1/admin/login', jsonInit('POST', loginDocument(ADMIN.email, password)), fromAddress(address));
    for (let i = 0; i < TEST_POLICY.throttle.perAccountAndAddress.limit; i += 1)
      await attempt('wrong-password', '203.0.113.9');
    const throttled = await attempt(ADMIN.password, '203.0.113.9');
    expect(throttled.status).toBe(429);
    expect(Number(throttled.headers.get('retry-after'))).toBeGreaterThan(0);
    expect((await attempt(ADMIN.password, '198.51.100.7')).status).toBe(200);
  });

  it.each([
    [
      422,
      'a missing password',
      { data: { type: 'users', attributes: { email: ADMIN.email } } },
      '/data/attributes/password',
    ],
    [409, 'another resource type', { data: { type: 'admins', attributes: ADMIN } }, '/data/type'],
    [422, 'no body at all', undefined, '/data'],
  ])('answers %i to %s', async (status, _, body, pointer) => {
    const t = await createTestApp();
    const response = await t.app.request(
      '/v1/admin/login',
      body === undefined ? { method: 'POST' } : jsonInit('POST', body),
    );
    expect(response.status).toBe(status);
    expect((await response.json()).errors[0].source).toEqual({ pointer });
  });
});

describe.each(['/v1/admin/refresh', '/v1/admin/token/refresh'])('POST %s', (path) => {
  it('exchanges a body refresh token for new tokens, without needing an access token', async () => {
    const t = await createTestApp();
    const { refreshToken } = await loggedIn(t);
    t.clock.advance(TEST_POLICY.accessTokenSeconds + 1); // the access token has expired
    const response = await t.app.request(
      path,
      jsonInit('POST', refreshBody(refreshToken), bearer('expired-or-garbage')),
    );
    expect(response.status).toBe(200);
    const { data } = await response.json();
    expect(data.attributes.refresh_token).not.toBe(refreshToken);
    expect(responseCookies(response).get(REFRESH_COOKIE)?.value).toBe(data.attributes.refresh_token);
  });

  it('accepts the session cookie alone from the same origin', async () => {
    const t = await createTestApp();
    const { refreshToken } = await loggedIn(t);
    for (const proof of [SAME_ORIGIN, { 'Sec-Fetch-Site': 'same-origin' }]) {
      const login = await t.loginAdmin();
      const response = await t.app.request(path, {
        method: 'POST',
        headers: { ...cookieHeader(login.refreshToken), ...proof },
      });
      expect(response.status).toBe(200);
    }
    expect(refreshToken).toBeTruthy();
  });

  it.each([
    ['no Origin at all', {}],
    ['another origin', { Origin: 'https://evil.example' }],
    ['another scheme', { Origin: 'https://localhost' }],
    ['a cross-site fetch', { 'Sec-Fetch-Site': 'cross-site' }],
    ['Origin null', { Origin: 'null' }],
  ])('refuses the cookie alone with %s (403), and keeps the token usable', async (_, headers) => {
    const t = await createTestApp();
    const { refreshToken } = await loggedIn(t);
    const response = await t.app.request(path, {
      method: 'POST',
      headers: { ...cookieHeader(refreshToken), ...headers },
    });
    expect(response.status).toBe(403);
    expect((await response.json()).errors[0]).toMatchObject({
      code: 'cross_site_request',
      title: 'Cross-site request',
    });
    expect((await t.app.request(path, jsonInit('POST', refreshBody(refreshToken)))).status).toBe(200);
  });

  it('clears the cookie when the cookie token fails, with a 401 challenge', async () => {
    const t = await createTestApp();
    const { refreshToken } = await loggedIn(t);
    await t.app.request(path, jsonInit('POST', refreshBody(refreshToken))); // rotates: the cookie's token is now retired
    t.clock.advance(TEST_POLICY.refreshReuseGraceSeconds + 1);
    const response = await t.app.request(path, {
      method: 'POST',
      headers: { ...cookieHeader(refreshToken), ...SAME_ORIGIN },
    });
    expect(response.status).toBe(401);
    expect(response.headers.get('www-authenticate')).toBe('Bearer error="invalid_token"');
    expect(responseCookies(response).get(REFRESH_COOKIE)).toMatchObject({ value: '' });
    expect(responseCookies(response).get(REFRESH_COOKIE)?.attributes.get('max-age')).toBe('0');
  });

  it.each([
    [401, 'no token at all', undefined],
    [401, 'a non-token string', 'not-a-token'],
    [422, 'a refresh token that is null', null],
  ])('answers %i to %s', async (status, _, token) => {
    const t = await createTestApp();
    const response = await t.app.request(path, jsonInit('POST', token === undefined ? {} : { refreshToken: token }));
    expect(response.status).toBe(status);
  });

  it('refuses a user refresh token (401)', async () => {
    const t = await createTestApp();
    await t.createUser({ email: 'u@example.com' });
    const { refreshToken } = await t.loginUser('u@example.com', 'user-password-1');
    expect((await t.app.request(path, jsonInit('POST', refreshBody(refreshToken)))).status).toBe(401);
  });
});

describe.each(['/v1/admin/refresh', '/v1/admin/token/refresh'])('DELETE %s (revoke)', (path) => {
  it('revokes a refresh token: 204, and again 204; the token no longer refreshes', async () => {
    const t = await createTestApp();
    const { accessToken, refreshToken } = await loggedIn(t);
    const revoke = () => t.app.request(path, jsonInit('DELETE', refreshBody(refreshToken), bearer(accessToken)));
    expect((await revoke()).status).toBe(204);
    expect((await revoke()).status).toBe(204);
    expect((await t.app.request(path, jsonInit('POST', refreshBody(refreshToken)))).status).toBe(401);
  });

  it('needs the Bearer admin token (401 without, 403 with a user token)', async () => {
    const t = await createTestApp();
    const { refreshToken } = await loggedIn(t);
    await t.createUser({ email: 'u@example.com' });
    const user = await t.loginUser('u@example.com', 'user-password-1');
    const missing = await t.app.request(path, jsonInit('DELETE', refreshBody(refreshToken)));
    expect(missing.status).toBe(401);
    expect(missing.headers.get('www-authenticate')).toBe('Bearer');
    expect(
      (await t.app.request(path, jsonInit('DELETE', refreshBody(refreshToken), bearer(user.accessToken)))).status,
    ).toBe(403);
  });

  it('answers a string that is no refresh token with 401, never 500', async () => {
    const t = await createTestApp();
    const { accessToken } = await loggedIn(t);
    for (const token of ['garbage', 'a.b.c', accessToken]) {
      expect((await t.app.request(path, jsonInit('DELETE', refreshBody(token), bearer(accessToken)))).status).toBe(401);
    }
  });

  it('revokes the cookie token from the same origin and clears the cookie', async () => {
    const t = await createTestApp();
    const { accessToken, refreshToken } = await loggedIn(t);
    const response = await t.app.request(path, {
      method: 'DELETE',
      headers: { ...bearer(accessToken), ...cookieHeader(refreshToken), ...SAME_ORIGIN },
    });
    expect(response.status).toBe(204);
    expect(responseCookies(response).get(REFRESH_COOKIE)?.attributes.get('max-age')).toBe('0');
  });
});

describe('DELETE /v1/admin/logout/:id', () => {
  it('ends every session: 204, the cookie cleared, access and refresh tokens dead at once', async () => {
    const t = await createTestApp();
    const { id, accessToken, refreshToken } = await loggedIn(t);
    const response = await t.app.request(`/v1/admin/logout/${id}`, { method: 'DELETE', headers: bearer(accessToken) });
    expect(response.status).toBe(204);
    expect(await response.text()).toBe('');
    expect(responseCookies(response).get(REFRESH_COOKIE)?.attributes.get('max-age')).toBe('0');
    expect((await t.app.request('/v1/admin/users', { headers: bearer(accessToken) })).status).toBe(401);
    expect((await t.app.request('/v1/admin/refresh', jsonInit('POST', refreshBody(refreshToken)))).status).toBe(401);
  });

  it.each([
    ['an unknown uuid', '00000000-0000-4000-8000-00000000ffff'],
    ['a malformed id', 'not-a-uuid'],
  ])('answers 404 to %s, in the same words', async (_, id) => {
    const t = await createTestApp();
    const { accessToken } = await loggedIn(t);
    const response = await t.app.request(`/v1/admin/logout/${id}`, { method: 'DELETE', headers: bearer(accessToken) });
    expect(response.status).toBe(404);
    expect((await response.json()).errors).toEqual([
      { status: '404', code: 'not_found', title: 'Not found', detail: 'No account with that id exists.' },
    ]);
  });

  it('refuses to log out another admin (403)', async () => {
    const t = await createTestApp();
    const { accessToken } = await loggedIn(t);
    const other = { ...t.admin, id: '00000000-0000-4000-8000-0000000000aa', email: 'other@example.com' };
    await t.repositories.admins.insert(other);
    expect(
      (await t.app.request(`/v1/admin/logout/${other.id}`, { method: 'DELETE', headers: bearer(accessToken) })).status,
    ).toBe(403);
  });

  it('needs an access token', async () => {
    const t = await createTestApp();
    expect((await t.app.request(`/v1/admin/logout/${t.admin.id}`, { method: 'DELETE' })).status).toBe(401);
  });
});
