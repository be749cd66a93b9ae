import type { User } from '@uas/domain';
import { FakeOneTimeCodes } from '@uas/domain/testing';
import { beforeEach, describe, expect, it } from 'vitest';
import { ADMIN, bearer, createTestApp, expectNoSecrets, jsonInit, usersDocument, type TestApp } from '../testing';

const PASSWORD = 'user-password-1';
const REASON = 'Ticket 4711: cannot find the export button';
const UNKNOWN = '00000000-0000-4000-8000-00000000dead';

let t: TestApp;
let user: User;
let admin: Record<string, string>;

beforeEach(async () => {
  t = await createTestApp({}, 'open', { impersonation: true });
  user = await t.createUser({ email: 'ann@example.com' });
  admin = bearer((await t.loginAdmin()).accessToken);
});

const impersonate = (id: string, body: unknown = { reason: REASON }, headers = admin) =>
  t.app.request(`/v1/admin/users/${id}/impersonation`, jsonInit('POST', body, headers));

/** Starts acting as Ann: the answer's attributes and the bearer header of its token. */
async function actingAsAnn() {
  const response = await impersonate(user.id);
  expect(response.status, await response.clone().text()).toBe(201);
  const { data } = await response.json();
  return { id: data.id as string, attributes: data.attributes, as: bearer(data.attributes.access_token) };
}

const errorOf = async (response: Response) => ((await response.json()) as { errors: { code: string }[] }).errors[0];
const payloadOf = (token: string) => JSON.parse(atob(token.replace(/^fake\./, ''))) as Record<string, unknown>;

describe('POST /v1/admin/users/{id}/impersonation', () => {
  it('answers a 15-minute user access token naming the admin in act, and no refresh token; the user sees the session', async () => {
    const response = await impersonate(user.id);
    expect(response.status).toBe(201);
    expect(response.headers.get('cache-control')).toBe('no-store');
    await expectNoSecrets(response, [PASSWORD, user.passwordHash, ADMIN.password, 'refresh']);
    const { data } = await response.json();
    const adminId = t.admin.id;
    expect(data).toEqual({
      type: 'impersonations',
      id: expect.any(String),
      attributes: {
        access_token: expect.any(String),
        token_type: 'Bearer',
        expires: '2026-01-01T00:15:00.000Z',
        user_id: user.id,
        reason: REASON,
      },
    });
    expect(payloadOf(data.attributes.access_token)).toMatchObject({
      sub: user.id,
      sid: data.id,
      act: { sub: adminId },
      exp: Date.parse('2026-01-01T00:15:00.000Z') / 1000,
    });
    const as = bearer(data.attributes.access_token);
    const me = await t.app.request('/v1/users/me', { headers: as });
    expect(me.status).toBe(200);
    expect((await me.json()).data.id).toBe(user.id);
    const own = await t.loginUser('ann@example.com', PASSWORD);
    const listed = await (await t.app.request('/v1/users/me/sessions', { headers: bearer(own.accessToken) })).json();
    expect(listed.data.find((session: { id: string }) => session.id === data.id).attributes).toMatchObject({
      impersonated_by: adminId,
      expires: '2026-01-01T00:15:00.000Z',
    });
    expect(listed.data.filter((session: { id: string }) => session.id !== data.id)[0].attributes.impersonated_by).toBe(
      null,
    );
  });

  it('refuses password, email, factor and recovery-code changes with the token (403 forbidden), and records what it may do under the admin', async () => {
    const { as } = await actingAsAnn();
    const refused: [string, string, unknown][] = [
      ['PATCH', '/v1/users/me', usersDocument({ password: 'taken-over-1', current_password: PASSWORD })],
      ['POST', '/v1/users/me/email', { email: 'mallory@example.com', current_password: PASSWORD }],
      ['POST', '/v1/users/me/factors', { data: { type: 'factors', attributes: { kind: 'totp' } } }],
      ['POST', '/v1/users/me/recovery-codes', {}],
    ];
    for (const [method, path, body] of refused) {
      const response = await t.app.request(path, jsonInit(method, body, as));
      expect(response.status, `${method} ${path}`).toBe(403);
      expect((await errorOf(response))?.code).toBe('forbidden');
    }
    expect((await t.loginUser('ann@example.com', PASSWORD)).response.status).toBe(200);
    const renamed = await t.app.request('/v1/users/me', jsonInit('PATCH', usersDocument({ name: 'Ann (fixed)' }), as));
    expect(renamed.status).toBe(200);
    const { data: events } = await (await t.app.request('/v1/admin/audit-events', { headers: admin })).json();
    const actions = events.map((event: { attributes: { action: string; actor: unknown } }) => event.attributes);
    expect(actions.find((event: { action: string }) => event.action === 'user.updated')?.actor).toEqual({
      type: 'admin',
      id: t.admin.id,
    });
    expect(actions.find((event: { action: string }) => event.action === 'user.impersonated')).toMatchObject({
      actor: { type: 'admin', id: t.admin.id },
      target: { type: 'users', id: user.id },
      changes: { reason: { before: null, after: REASON } },
    });
  });

  it('stops the token at once when the session ends: by the user, or by an admin', async () => {
    const byUser = await actingAsAnn();
    const own = bearer((await t.loginUser('ann@example.com', PASSWORD)).accessToken);
    const ended = await t.app.request(`/v1/users/me/sessions/${byUser.id}`, { method: 'DELETE', headers: own });
    expect(ended.status).toBe(204);
    expect((await t.app.request('/v1/users/me', { headers: byUser.as })).status).toBe(401);

    const byAdmin = await actingAsAnn();
    const path = `/v1/admin/users/${user.id}/sessions/${byAdmin.id}`;
    expect((await t.app.request(path, { method: 'DELETE', headers: admin })).status).toBe(204);
    expect((await t.app.request('/v1/users/me', { headers: byAdmin.as })).status).toBe(401);
  });

  it('acts only as an end user: an admin id or an unknown one is not found, a banned or inactive user refused', async () => {
    for (const id of [t.admin.id, UNKNOWN, 'not-a-uuid']) {
      const response = await impersonate(id);
      expect(response.status, id).toBe(404);
      expect((await errorOf(response))?.code).toBe('not_found');
    }
    await t.deps.users.ban(user.id, { reason: 'spam', until: null });
    const banned = await impersonate(user.id);
    expect(banned.status).toBe(403);
    expect((await errorOf(banned))?.code).toBe('account_banned');
    await t.deps.users.update(user.id, { active: 0 });
    const inactive = await impersonate(user.id);
    expect(inactive.status).toBe(403);
    expect((await errorOf(inactive))?.code).toBe('account_inactive');
  });

  it('needs a reason, and takes no other member than reason, code and credential (422)', async () => {
    for (const body of [
      {},
      { reason: '' },
      { reason: 'x'.repeat(501) },
      { reason: 7 },
      { reason: REASON, as: 'root' },
    ]) {
      const response = await impersonate(user.id, body);
      expect(response.status, JSON.stringify(body)).toBe(422);
      expect((await errorOf(response))?.code).toBe('invalid_attribute');
    }
  });

  it('is open to support, admins and owners, not to auditors (403 forbidden) nor to user tokens', async () => {
    expect((await impersonate(user.id, { reason: REASON }, await t.adminWith('support'))).status).toBe(201);
    expect((await impersonate(user.id, { reason: REASON }, await t.adminWith('admin'))).status).toBe(201);
    const auditor = await impersonate(user.id, { reason: REASON }, await t.adminWith('auditor'));
    expect(auditor.status).toBe(403);
    expect((await errorOf(auditor))?.code).toBe('forbidden');
    const own = bearer((await t.loginUser('ann@example.com', PASSWORD)).accessToken);
    expect((await impersonate(user.id, { reason: REASON }, own)).status).toBe(403);
    expect((await impersonate(user.id, { reason: REASON }, {})).status).toBe(401);
  });

  it('asks an admin with a second factor for a code or passkey each time (403 second_factor_required)', async () => {
    const { secret } = await t.enrol.totp('admin', t.admin.id, t.clock.now());
    const bare = await impersonate(user.id);
    expect(bare.status).toBe(403);
    expect((await errorOf(bare))?.code).toBe('second_factor_required');
    const code = new FakeOneTimeCodes().codeAt(secret, t.clock.now());
    expect((await impersonate(user.id, { reason: REASON, code })).status).toBe(201);
  });
});

describe('POST /v1/admin/users/{id}/impersonation with IMPERSONATION off', () => {
  it('403 impersonation_disabled, before the id or the body is judged', async () => {
    const off = await createTestApp();
    const token = bearer((await off.loginAdmin()).accessToken);
    for (const [id, body] of [
      [UNKNOWN, { reason: REASON }],
      ['not-a-uuid', {}],
    ] as const) {
      const response = await off.app.request(`/v1/admin/users/${id}/impersonation`, jsonInit('POST', body, token));
      expect(response.status).toBe(403);
      expect((await errorOf(response))?.code).toBe('impersonation_disabled');
    }
  });

  it("after the body's JSON, the token and the role: 400 malformed_json, 401, then 403 forbidden first", async () => {
    t = await createTestApp();
    const owner = bearer((await t.loginAdmin()).accessToken);
    const malformed = await t.app.request(`/v1/admin/users/${UNKNOWN}/impersonation`, {
      method: 'POST',
      headers: { ...owner, 'Content-Type': 'application/json' },
      body: '{',
    });
    expect(malformed.status).toBe(400);
    expect((await errorOf(malformed))?.code).toBe('malformed_json');
    expect((await impersonate(UNKNOWN, { reason: REASON }, {})).status).toBe(401);
    const auditor = await impersonate(UNKNOWN, { reason: REASON }, await t.adminWith('auditor'));
    expect(auditor.status).toBe(403);
    expect((await errorOf(auditor))?.code).toBe('forbidden');
  });
});
