import { beforeEach, describe, expect, it } from 'vitest';
import { FakeOneTimeCodes } from '@uas/domain/testing';
import { bearer, createTestApp, jsonInit, type TestApp } from '../testing';

const codes = new FakeOneTimeCodes(); // its codes depend only on the secret and the time
const enrolTotp = { data: { type: 'factors', attributes: { kind: 'totp' } } };

let t: TestApp;
let auth: Record<string, string>;

beforeEach(async () => {
  t = await createTestApp();
  await t.createUser({ email: 'ann@example.com' });
  auth = bearer((await t.loginUser('ann@example.com', 'user-password-1')).accessToken);
});

/** Enrols and verifies a TOTP factor through the API, as `headers`' account, under `base`. */
async function activeTotp(headers = auth, base = '/v1/users/me') {
  const enrolled = await (await t.app.request(`${base}/factors`, jsonInit('POST', enrolTotp, headers))).json();
  const { secret } = enrolled.data.attributes;
  const code = codes.codeAt(secret, t.clock.now());
  const verified = await t.app.request(
    `${base}/factors/${enrolled.data.id}/verify`,
    jsonInit('POST', { code }, headers),
  );
  return { id: enrolled.data.id as string, secret: secret as string, verified };
}

describe('/v1/users/me/factors', () => {
  it('enrols TOTP (201, secret, otpauth_uri and QR shown once), verifies it (recovery codes), then lists it without secrets', async () => {
    const response = await t.app.request('/v1/users/me/factors', jsonInit('POST', enrolTotp, auth));
    expect(response.status).toBe(201);
    const { data } = await response.json();
    expect(data).toMatchObject({ type: 'factors', attributes: { kind: 'totp', status: 'pending', last_used: null } });
    expect(data.attributes.otpauth_uri).toContain(`secret=${data.attributes.secret}`);
    expect(data.attributes.qr_svg).toMatch(/^<svg/);
    const code = codes.codeAt(data.attributes.secret, t.clock.now());
    const wrong = await t.app.request(
      `/v1/users/me/factors/${data.id}/verify`,
      jsonInit('POST', { code: '000000' }, auth),
    );
    expect(wrong.status).toBe(401);
    expect((await wrong.json()).errors[0].code).toBe('invalid_second_factor');
    const verified = await t.app.request(`/v1/users/me/factors/${data.id}/verify`, jsonInit('POST', { code }, auth));
    expect(verified.status).toBe(200);
    const activated = (await verified.json()).data;
    expect(activated.attributes.status).toBe('active');
    expect(activated.attributes.recovery_codes).toHaveLength(10);
    const again = await t.app.request(`/v1/users/me/factors/${data.id}/verify`, jsonInit('POST', { code }, auth));
    expect(again.status).toBe(409);
    const listed = await t.app.request('/v1/users/me/factors', { headers: auth });
    const text = await listed.text();
    expect(text).not.toContain(data.attributes.secret);
    expect(JSON.parse(text)).toEqual({
      data: [{ type: 'factors', id: data.id, attributes: expect.objectContaining({ status: 'active' }) }],
      meta: { recovery_codes_left: 10 },
    });
  });

  it('refuses an unknown kind (422), a factor id that is not one (404), and no token (401)', async () => {
    const sms = { data: { type: 'factors', attributes: { kind: 'sms' } } };
    expect((await t.app.request('/v1/users/me/factors', jsonInit('POST', sms, auth))).status).toBe(422);
    expect((await t.app.request('/v1/users/me/factors/nope/verify', jsonInit('POST', {}, auth))).status).toBe(404);
    expect((await t.app.request('/v1/users/me/factors')).status).toBe(401);
  });

  it('DELETE and new recovery codes need a step-up: 403 second_factor_required, then a code in the body', async () => {
    const { id, secret } = await activeTotp();
    const refused = await t.app.request(`/v1/users/me/factors/${id}`, { method: 'DELETE', headers: auth });
    expect(refused.status).toBe(403);
    expect((await refused.json()).errors[0].code).toBe('second_factor_required');
    t.clock.advance(30);
    const renewed = await t.app.request(
      '/v1/users/me/recovery-codes',
      jsonInit('POST', { code: codes.codeAt(secret, t.clock.now()) }, auth),
    );
    expect(renewed.status).toBe(200);
    const { data } = await renewed.json();
    expect(data.type).toBe('recovery_codes');
    expect(data.attributes.recovery_codes).toHaveLength(10);
    const removed = await t.app.request(
      `/v1/users/me/factors/${id}`,
      jsonInit('DELETE', { code: data.attributes.recovery_codes[0] }, auth),
    );
    expect(removed.status).toBe(204);
  });
});

describe('/v1/admin/users/{id}/factors', () => {
  it("lists a user's factors without secrets, and a reset removes them and ends the user's sessions", async () => {
    const { secret } = await activeTotp();
    const user = (await (await t.app.request('/v1/users/me', { headers: auth })).json()).data;
    const admin = bearer((await t.loginAdmin()).accessToken);
    const listed = await t.app.request(`/v1/admin/users/${user.id}/factors`, { headers: admin });
    expect(listed.status).toBe(200);
    const text = await listed.text();
    expect(text).not.toContain(secret);
    expect(JSON.parse(text).meta).toEqual({ recovery_codes_left: 10 });
    const reset = await t.app.request(`/v1/admin/users/${user.id}/factors`, { method: 'DELETE', headers: admin });
    expect(reset.status).toBe(204);
    expect((await t.app.request('/v1/users/me', { headers: auth })).status).toBe(401);
    const after = await (await t.app.request(`/v1/admin/users/${user.id}/factors`, { headers: admin })).json();
    expect(after).toEqual({ data: [], meta: { recovery_codes_left: 0 } });
    expect((await t.app.request(`/v1/admin/users/${user.id}/factors`, { headers: auth })).status).toBe(403);
  });
});

describe('ADMIN_MFA=required', () => {
  it('closes every admin route but who-am-I, enrolment, refresh and logout to an admin without a factor, until one is active', async () => {
    t = await createTestApp({ adminMfa: 'required' });
    const admin = bearer((await t.loginAdmin()).accessToken);
    const users = await t.app.request('/v1/admin/users', { headers: admin });
    expect(users.status).toBe(403);
    expect((await users.json()).errors[0].code).toBe('mfa_enrolment_required');
    expect((await t.app.request('/v1/admin/stats', { headers: admin })).status).toBe(403);
    expect((await t.app.request('/v1/admin/me/factors', { headers: admin })).status).toBe(200);
    expect((await t.app.request('/v1/admin/me', { headers: admin })).status).toBe(200);
    // Without a valid admin token the routes refuse as they always do.
    expect((await t.app.request('/v1/admin/users')).status).toBe(401);
    const { verified } = await activeTotp(admin, '/v1/admin/me');
    expect(verified.status).toBe(200);
    expect((await t.app.request('/v1/admin/users', { headers: admin })).status).toBe(200);
  });

  it('lets every admin route through when optional (the default)', async () => {
    const admin = bearer((await t.loginAdmin()).accessToken);
    expect((await t.app.request('/v1/admin/users', { headers: admin })).status).toBe(200);
  });
});
