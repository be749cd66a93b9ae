import { beforeEach, describe, expect, it } from 'vitest';
import { bearer, createTestApp, expectNoSecrets, jsonInit, type TestApp } from '../testing';

let t: TestApp;
let admin: Record<string, string>;
beforeEach(async () => {
  t = await createTestApp();
  admin = bearer((await t.loginAdmin()).accessToken);
});

const post = (path: string, headers = admin) => t.app.request(path, { method: 'POST', headers });
const UNKNOWN = '00000000-0000-4000-8000-0000000000ff';
const outbox = async () => (await t.deps.mail.list({ page: 1, size: 10 })).messages;

describe('POST /v1/admin/users/{id}/recovery', () => {
  it('202 queues a recovery link to the user', async () => {
    const user = await t.createUser();
    const response = await post(`/v1/admin/users/${user.id}/recovery`);
    expect(response.status).toBe(202);
    expect(await outbox()).toMatchObject([{ kind: 'recovery', recipient: user.email }]);
  });

  it('?delivery=link → 201 with a working link, nothing mailed, not cached; the audit event holds no link', async () => {
    const user = await t.createUser();
    const response = await post(`/v1/admin/users/${user.id}/recovery?delivery=link`);
    expect(response.status).toBe(201);
    expect(response.headers.get('cache-control')).toBe('no-store');
    const body = await response.json();
    expect(body.data).toMatchObject({ type: 'recovery-links', id: user.id });
    const link = body.data.attributes.link as string;
    expect(link).toMatch(/^https:\/\/id\.example\.com\/account\/reset-password\?token=/);
    expect(await outbox()).toEqual([]);
    const token = new URL(link).searchParams.get('token')!;
    const trail = await t.app.request('/v1/admin/audit-events?filter[action]=user.recovery_sent', { headers: admin });
    expect((await trail.clone().json()).data).toHaveLength(1);
    await expectNoSecrets(trail, [token]);
    expect(t.logger.text()).not.toContain(token);
    const reset = await t.app.request('/v1/reset-password', jsonInit('POST', { token, password: 'a brand new one' }));
    expect(reset.status).toBe(204);
  });

  it.each([
    ['an unknown user', `/v1/admin/users/${UNKNOWN}/recovery`, 404],
    ['a bad delivery', `/v1/admin/users/${UNKNOWN}/recovery?delivery=fax`, 400],
  ])('%s → %d', async (_case, path, status) => {
    expect((await post(path)).status).toBe(status);
  });

  it('a user token → 403; none → 401', async () => {
    const user = await t.createUser({ password: 'user-password-1' });
    const { accessToken } = await t.loginUser(user.email, 'user-password-1');
    expect((await post(`/v1/admin/users/${user.id}/recovery`, bearer(accessToken))).status).toBe(403);
    expect((await post(`/v1/admin/users/${user.id}/recovery`, {})).status).toBe(401);
  });
});

describe('POST /v1/admin/users/{id}/verification', () => {
  it('202 queues a verification link for an unverified user; 409 email_already_verified for a verified one', async () => {
    const unverified = await t.createUser({ emailVerified: false });
    expect((await post(`/v1/admin/users/${unverified.id}/verification`)).status).toBe(202);
    expect(await outbox()).toMatchObject([{ kind: 'verification', recipient: unverified.email }]);
    const verified = await t.createUser();
    const refused = await post(`/v1/admin/users/${verified.id}/verification`);
    expect(refused.status).toBe(409);
    expect((await refused.json()).errors[0].code).toBe('email_already_verified');
    expect((await post(`/v1/admin/users/${UNKNOWN}/verification`)).status).toBe(404);
  });
});
