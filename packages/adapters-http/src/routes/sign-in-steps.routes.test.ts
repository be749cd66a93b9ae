import { SECOND_FACTOR_RULES } from '@uas/domain';
import { FakePasskeyCeremonies } from '@uas/domain/testing';
import { describe, expect, it } from 'vitest';
import { REFRESH_COOKIE } from '../session/refresh-cookie';
import {
  ADMIN,
  createTestApp,
  expectNoSecrets,
  jsonInit,
  loginDocument,
  responseCookies,
  type TestApp,
} from '../testing';

const PASSWORD = 'user-password-1';

/** A user with an active TOTP factor and recovery codes, and a challenge of its login. */
async function challenged(t: TestApp) {
  const user = await t.createUser();
  const { secret } = await t.enrol.totp('user', user.id, t.clock.now());
  await t.enrol.recoveryCodes('user', user.id, ['AAAA-BBBB-CCCC']);
  const response = await t.app.request('/v1/login', jsonInit('POST', loginDocument(user.email, PASSWORD)));
  const body = await response.clone().json();
  return {
    user,
    secret,
    response,
    challenge: body.data.id as string,
    code: () => t.codes.codeAt(secret, t.clock.now()),
  };
}

const mfa = (t: TestApp, body: unknown, path = '/v1/login/mfa') => t.app.request(path, jsonInit('POST', body));

describe('the sign-in steps over HTTP', () => {
  it('answers a login of an account with a factor with an mfa_challenges resource and no token', async () => {
    const t = await createTestApp();
    const { response, challenge } = await challenged(t);
    expect(response.status).toBe(200);
    const body = await response.json();
    expect(body).toEqual({
      data: {
        type: 'mfa_challenges',
        id: challenge,
        attributes: { kinds: ['totp', 'recovery_code'], expires: expect.stringMatching(/Z$/) },
      },
    });
    expect(JSON.stringify(body)).not.toMatch(/access_token|refresh_token|eyJ/);
    expect(response.headers.getSetCookie()).toEqual([]);
  });

  it('opens the session at the second step with a TOTP code, never twice for one challenge', async () => {
    const t = await createTestApp();
    const { challenge, code, user } = await challenged(t);
    const response = await mfa(t, { challenge, code: code() });
    expect(response.status).toBe(200);
    await expectNoSecrets(response, [PASSWORD, challenge]);
    expect((await response.json()).data).toMatchObject({ type: 'users', id: user.id });
    const again = await mfa(t, { challenge, code: 'aaaa-bbbb-cccc' });
    expect(again.status).toBe(401);
    expect((await again.json()).errors[0].code).toBe('invalid_challenge');
  });

  it('refuses a wrong code as invalid_second_factor, and an unknown challenge as invalid_challenge', async () => {
    const t = await createTestApp();
    const { challenge } = await challenged(t);
    const wrong = await mfa(t, { challenge, code: '000000' });
    expect([wrong.status, (await wrong.json()).errors[0].code]).toEqual([401, 'invalid_second_factor']);
    const unknown = await mfa(t, { challenge: 'not-a-challenge', code: '000000' });
    expect([unknown.status, (await unknown.json()).errors[0].code]).toEqual([401, 'invalid_challenge']);
  });

  it('wants exactly one of code and credential, and nothing else', async () => {
    const t = await createTestApp();
    const { challenge, code } = await challenged(t);
    for (const body of [
      { challenge },
      { challenge, code: code(), credential: {} },
      { challenge, code: code(), x: 1 },
      {},
    ]) {
      const response = await mfa(t, body);
      expect(response.status).toBe(422);
    }
  });

  it("refuses a user's challenge at the admin second step", async () => {
    const t = await createTestApp();
    const { challenge, code } = await challenged(t);
    const response = await mfa(t, { challenge, code: code() }, '/v1/admin/login/mfa');
    expect([response.status, (await response.json()).errors[0].code]).toEqual([401, 'invalid_challenge']);
  });

  it("sets the panel's refresh cookie at the admin second step, as the admin login does", async () => {
    const t = await createTestApp();
    const { secret } = await t.enrol.totp('admin', t.admin.id, t.clock.now());
    const login = await t.app.request('/v1/admin/login', jsonInit('POST', loginDocument(ADMIN.email, ADMIN.password)));
    expect(login.headers.getSetCookie()).toEqual([]);
    const { data } = await login.json();
    const response = await mfa(
      t,
      { challenge: data.id, code: t.codes.codeAt(secret, t.clock.now()) },
      '/v1/admin/login/mfa',
    );
    expect(response.status).toBe(200);
    const cookie = responseCookies(response).get(REFRESH_COOKIE);
    expect(cookie?.value).toBe((await response.json()).data.attributes.refresh_token);
    expect(cookie?.attributes.get('path')).toBe('/v1/admin');
    expect(cookie?.attributes.has('httponly')).toBe(true);
  });

  it('signs in with a passkey alone over the passkey options, once', async () => {
    const t = await createTestApp();
    const user = await t.createUser();
    const { credential } = await t.enrol.passkey('user', user.id, t.clock.now());
    const options = await t.app.request('/v1/login/passkey/options', { method: 'POST' });
    expect(options.status).toBe(200);
    const { data } = await options.json();
    expect(data).toMatchObject({ type: 'passkey_challenges', attributes: { webauthn: { challenge: data.id } } });
    const body = { credential: FakePasskeyCeremonies.assertion(credential, data.id) };
    const response = await t.app.request('/v1/login/passkey', jsonInit('POST', body));
    expect([response.status, (await response.json()).data.id]).toEqual([200, user.id]);
    const again = await t.app.request('/v1/login/passkey', jsonInit('POST', body));
    expect([again.status, (await again.json()).errors[0].code]).toEqual([401, 'invalid_second_factor']);
  });

  it(`limits the passkey options per client address, admins' and users' together: ${SECOND_FACTOR_RULES.passkeyOptionsPerMinute} a minute, then 429 with Retry-After`, async () => {
    const t = await createTestApp();
    const options = (path: string) => t.app.request(`${path}/passkey/options`, { method: 'POST' });
    const limit = SECOND_FACTOR_RULES.passkeyOptionsPerMinute;
    const answered = await Promise.all(
      Array.from({ length: limit }, (_, n) => options(n % 2 === 0 ? '/v1/login' : '/v1/admin/login')),
    );
    expect(answered.map((response) => response.status)).toEqual(Array.from({ length: limit }, () => 200));
    t.clock.advance(20);
    for (const path of ['/v1/login', '/v1/admin/login']) {
      const refused = await options(path);
      expect([refused.status, (await refused.json()).errors[0].code]).toEqual([429, 'too_many_attempts']);
      expect(refused.headers.get('retry-after')).toBe('40');
    }
    t.clock.advance(40);
    expect((await options('/v1/login')).status).toBe(200);
  });
});
