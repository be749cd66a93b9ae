import { describe, expect, it } from 'vitest';
import { TEST_POLICY, bearer, createTestApp, expectNoSecrets, fromAddress, jsonInit, loginDocument } from '../testing';

const PASSWORD = 'user-password-1';

describe('end-user sessions', () => {
  it('POST /v1/login returns the session record and sets no cookie', async () => {
    const t = await createTestApp();
    const user = await t.createUser({ email: 'ann@example.com', name: 'Ann' });
    const { response } = await t.loginUser('ann@example.com', PASSWORD);
    expect(response.status).toBe(200);
    expect(response.headers.getSetCookie()).toEqual([]);
    expect(response.headers.get('cache-control')).toBe('no-store');
    await expectNoSecrets(response, [PASSWORD, user.passwordHash]);
    const { data } = await response.json();
    expect(data).toMatchObject({ type: 'users', id: user.id, attributes: { name: 'Ann', email: 'ann@example.com' } });
    expect(data.attributes.access_token_expiry).toBe(
      Math.floor(t.clock.now().getTime() / 1000) + TEST_POLICY.accessTokenSeconds,
    );
  });

  it('refuses an inactive account with the right password (403)', async () => {
    const t = await createTestApp();
    await t.createUser({ email: 'ann@example.com', active: 0 });
    expect((await t.loginUser('ann@example.com', PASSWORD)).response.status).toBe(403);
  });

  it('refuses an unverified account: the right password 403 email_not_verified, a wrong one 401 as any', async () => {
    const t = await createTestApp();
    await t.createUser({ email: 'ann@example.com', emailVerified: false });
    const right = (await t.loginUser('ann@example.com', PASSWORD)).response;
    expect(right.status).toBe(403);
    expect((await right.json()).errors[0].code).toBe('email_not_verified');
    const wrong = (await t.loginUser('ann@example.com', 'wrong-password')).response;
    const unknown = (await t.loginUser('nobody@example.com', 'wrong-password')).response;
    expect([wrong.status, unknown.status]).toEqual([401, 401]);
    expect(await wrong.json()).toEqual(await unknown.json());
  });

  it('refuses admin credentials (401)', async () => {
    const t = await createTestApp();
    const response = await t.app.request(
      '/v1/login',
      jsonInit('POST', loginDocument('admin@example.com', 'admin-password-1')),
    );
    expect(response.status).toBe(401);
  });

  it('throttles by the client address: 429 with Retry-After', async () => {
    const t = await createTestApp();
    await t.createUser({ email: 'ann@example.com' });
    const attempt = (password: string) =>
      t.app.request(
        '/v1/login',
        jsonInit('POST', loginDocument('ann@example.com', password)),
        fromAddress('203.0.113.9'),
      );
    for (let i = 0; i < TEST_POLICY.throttle.perAccountAndAddress.limit; i += 1) await attempt('wrong-password');
    const response = await attempt(PASSWORD);
    expect(response.status).toBe(429);
    expect(response.headers.get('retry-after')).toMatch(/^\d+$/);
  });

  it('POST /v1/refresh rotates, and a token reused after the grace window is refused (401)', async () => {
    const t = await createTestApp();
    await t.createUser({ email: 'ann@example.com' });
    const { refreshToken } = await t.loginUser('ann@example.com', PASSWORD);
    const first = await t.app.request('/v1/refresh', jsonInit('POST', { refreshToken }));
    expect(first.status).toBe(200);
    expect(first.headers.getSetCookie()).toEqual([]);
    t.clock.advance(TEST_POLICY.refreshReuseGraceSeconds + 1);
    const reuse = await t.app.request('/v1/refresh', jsonInit('POST', { refreshToken }));
    expect(reuse.status).toBe(401);
    expect((await reuse.json()).errors[0].code).toBe('refresh_token_reused');
  });

  it('POST /v1/refresh needs the token in the body: the admin cookie means nothing here', async () => {
    const t = await createTestApp();
    const response = await t.app.request('/v1/refresh', { method: 'POST' });
    expect(response.status).toBe(401);
    expect(response.headers.get('www-authenticate')).toBe('Bearer');
    expect((await response.json()).errors[0].code).toBe('missing_token');
  });

  it('DELETE /v1/refresh revokes with the user Bearer token (204), and refuses an admin token (403)', async () => {
    const t = await createTestApp();
    await t.createUser({ email: 'ann@example.com' });
    const { accessToken, refreshToken } = await t.loginUser('ann@example.com', PASSWORD);
    const admin = await t.loginAdmin();
    expect(
      (await t.app.request('/v1/refresh', jsonInit('DELETE', { refreshToken }, bearer(admin.accessToken)))).status,
    ).toBe(403);
    expect((await t.app.request('/v1/refresh', jsonInit('DELETE', { refreshToken }, bearer(accessToken)))).status).toBe(
      204,
    );
    expect((await t.app.request('/v1/refresh', jsonInit('DELETE', { refreshToken }, bearer(accessToken)))).status).toBe(
      204,
    );
    expect((await t.app.request('/v1/refresh', jsonInit('POST', { refreshToken }))).status).toBe(401);
  });
});
