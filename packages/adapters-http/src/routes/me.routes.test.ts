import type { User } from '@uas/domain';
import { beforeEach, describe, expect, it } from 'vitest';
import { bearer, createTestApp, expectNoSecrets, jsonInit, usersDocument, type TestApp } from '../testing';

const PASSWORD = 'user-password-1';

let t: TestApp;
let user: User;
let auth: Record<string, string>;

beforeEach(async () => {
  t = await createTestApp();
  user = await t.createUser({ email: 'ann@example.com', name: 'Ann', metadata: { theme: 'dark' } });
  auth = bearer((await t.loginUser('ann@example.com', PASSWORD)).accessToken);
});

const patchMe = (attributes: Record<string, unknown>, extra: Record<string, unknown> = {}, headers = auth) =>
  t.app.request('/v1/users/me', jsonInit('PATCH', usersDocument(attributes, extra), headers));

describe('GET /v1/users/me', () => {
  it('returns the caller, without the hash', async () => {
    const response = await t.app.request('/v1/users/me', { headers: auth });
    expect(response.status).toBe(200);
    await expectNoSecrets(response, [user.passwordHash, PASSWORD]);
    expect((await response.json()).data).toMatchObject({
      type: 'users',
      id: user.id,
      attributes: { name: 'Ann', metadata: { theme: 'dark' } },
    });
  });

  it('refuses an admin token (403) and no token (401)', async () => {
    const admin = await t.loginAdmin();
    expect((await t.app.request('/v1/users/me', { headers: bearer(admin.accessToken) })).status).toBe(403);
    expect((await t.app.request('/v1/users/me')).status).toBe(401);
  });
});

describe('PATCH /v1/users/me', () => {
  it('changes name and metadata', async () => {
    const response = await patchMe({ name: 'Annie', metadata: { theme: 'light' } }, { id: user.id });
    expect(response.status).toBe(200);
    expect((await response.json()).data.attributes).toMatchObject({
      name: 'Annie',
      metadata: { theme: 'light' },
      app: {},
    });
  });

  it.each([
    ['app', { app: { role: 'admin' } }],
    ['email', { email: 'new@example.com' }],
    ['active', { active: 0 }],
  ])('refuses %s with 403 and changes nothing', async (_, attributes) => {
    const response = await patchMe({ name: 'Changed', ...attributes });
    expect(response.status).toBe(403);
    expect((await response.json()).errors[0]).toMatchObject({ status: '403', code: 'forbidden' });
    expect((await t.repositories.users.findById(user.id))?.name).toBe('Ann');
  });

  it('lets the 403 for admin-only attributes win over other problems in the request', async () => {
    const response = await patchMe({ app: null, name: 42, unknown: true, password: 'short' });
    expect(response.status).toBe(403);
  });

  it('validates what a user may send: 422 with pointers', async () => {
    const response = await patchMe({ name: 42, unknown: true });
    expect(response.status).toBe(422);
    const pointers = (await response.json()).errors.map(
      (error: { source: { pointer: string } }) => error.source.pointer,
    );
    expect(pointers).toEqual(['/data/attributes/name', '/data/attributes/unknown']);
  });

  it('changes the password only with the right current_password', async () => {
    expect((await patchMe({ password: 'new-password-1' })).status).toBe(422);
    expect((await patchMe({ password: 'new-password-1', current_password: 'wrong-password' })).status).toBe(422);
    const response = await patchMe({ password: 'new-password-1', current_password: PASSWORD });
    expect(response.status).toBe(200);
    await expectNoSecrets(response, ['new-password-1', PASSWORD]);
    expect((await t.loginUser('ann@example.com', 'new-password-1')).response.status).toBe(200);
  });

  it('answers 409 when data.id names someone else', async () => {
    expect((await patchMe({ name: 'x' }, { id: '00000000-0000-4000-8000-00000000ffff' })).status).toBe(409);
  });
});
