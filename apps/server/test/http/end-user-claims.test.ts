import { describe, expect, it } from 'vitest';
import { BACKENDS } from '../support/test-application';
import { claimsOf, headerOf, nowSeconds, userScenario } from '../support/user-client';
import { sessionOf } from '../support/admin-api';

const ISSUER = 'https://accounts.example.test';
const AUDIENCE = 'https://shop.example.test';
const ACCESS_TTL = 300;

describe.each(BACKENDS)('claims of user tokens on %s', (backend) => {
  const scenario = userScenario(backend, {
    env: { JWT_ISSUER: ISSUER, JWT_AUDIENCE: AUDIENCE, ACCESS_TOKEN_TTL_SECONDS: String(ACCESS_TTL) },
  });

  it('a fresh access token carries the stored account: sub, email, name, metadata, app, iat, exp, iss, aud, sid, amr, aal', async () => {
    const { t, api } = scenario;
    const user = await api.createUser({
      name: 'Zoë Ünal',
      email: 'Zoe@Example.com',
      metadata: { theme: 'dark', tags: ['a', 'ü'], nested: { n: 1, ok: true, none: null } },
      app: { plan: 'pro', roles: ['editor'] },
    });
    const { accessToken } = await api.loginAs(user);
    const stored = await api.stored(accessToken);

    expect(claimsOf(accessToken)).toEqual({
      sub: user.id,
      email: 'zoe@example.com',
      name: 'Zoë Ünal',
      metadata: stored.metadata,
      app: stored.app,
      iat: nowSeconds(t),
      exp: nowSeconds(t) + ACCESS_TTL,
      iss: ISSUER,
      aud: AUDIENCE,
      sid: expect.stringMatching(/^[0-9a-f-]{36}$/),
      jti: expect.stringMatching(/^[0-9a-f-]{36}$/),
      amr: ['pwd'],
      aal: 'aal1',
    });
    expect(stored).toMatchObject({
      email: 'zoe@example.com',
      name: 'Zoë Ünal',
      metadata: user.attributes.metadata,
      app: user.attributes.app,
    });
  });

  it('every token header names its algorithm and a kid that the JWKS publishes', async () => {
    const { api } = scenario;
    const session = await api.loginAs(await api.createUser());
    const { keys } = await (await api.client.get('/.well-known/jwks.json')).json();
    for (const token of [session.accessToken, session.refreshToken, await api.client.adminToken()]) {
      const header = headerOf(token);
      expect(header).toEqual({ alg: 'ES256', kid: expect.any(String), typ: 'JWT' });
      expect(keys.map((key: { kid: string }) => key.kid)).toContain(header.kid);
    }
  });

  it('the refresh token carries no account data and has an audience of its own', async () => {
    const { api } = scenario;
    const session = await api.loginAs(await api.createUser({ metadata: { secret: 'x' }, app: { plan: 'pro' } }));
    const claims = claimsOf(session.refreshToken);
    expect(Object.keys(claims).sort()).toEqual(['aud', 'exp', 'iat', 'iss', 'jti', 'sid', 'sub']);
    expect(claims.aud).not.toBe(AUDIENCE);
    expect(claims.sid).toBe(claimsOf(session.accessToken).sid);
  });

  it('after an admin changes app, the next refresh carries the new value, and so does the next login', async () => {
    const { api } = scenario;
    const user = await api.createUser({ app: { plan: 'free' } });
    const before = await api.loginAs(user);
    await api.adminPatch(user.id, { app: { plan: 'team', seats: 5 } });
    expect(claimsOf(before.accessToken).app).toEqual({ plan: 'free' });

    const refreshed = await sessionOf(await api.refresh(before.refreshToken));
    expect(claimsOf(refreshed.accessToken).app).toEqual({ plan: 'team', seats: 5 });
    const loggedIn = await api.loginAs(user);
    expect(claimsOf(loggedIn.accessToken).app).toEqual({ plan: 'team', seats: 5 });
  });

  it('a refresh issues a token whose iat and exp follow the clock, with the same sid', async () => {
    const { t, api } = scenario;
    const user = await api.createUser();
    const first = await api.loginAs(user);
    t.clock.advance(120);
    const second = await sessionOf(await api.refresh(first.refreshToken));
    expect(claimsOf(second.accessToken)).toMatchObject({
      iat: nowSeconds(t),
      exp: nowSeconds(t) + ACCESS_TTL,
      sid: claimsOf(first.accessToken).sid,
    });
    expect(second.accessTokenExpiry).toBe(nowSeconds(t) + ACCESS_TTL);
  });
});
