import { describe, expect, it } from 'vitest';
import { BACKENDS } from '../support/test-application';
import { claimsOf, userScenario, withoutAdminOnly } from '../support/user-client';
import { expectError } from '../support/error-expectations';
import { sessionOf } from '../support/admin-api';
import { USER_PASSWORD } from '../support/wire';

const NEW_PASSWORD = 'a brand new passphrase';
const CURRENT_PASSWORD_POINTER = '/data/attributes/current_password';

describe.each(BACKENDS)('a user on their own account (/v1/users/me) on %s', (backend) => {
  const scenario = userScenario(backend);

  it('GET /v1/users/me answers the user exactly as the admin API shows it, but for the ban only admins see', async () => {
    const { api } = scenario;
    const user = await api.createUser({ name: 'Ann', metadata: { theme: 'dark' }, app: { plan: 'pro' } });
    const { accessToken } = await api.loginAs(user);
    const response = await api.me(accessToken);
    expect(response.status).toBe(200);
    const asAdminSees = await (await api.asAdmin('GET', `/v1/admin/users/${user.id}`)).json();
    expect(asAdminSees.data.attributes).toMatchObject({ banned: false, banned_until: null, ban_reason: null });
    const attributes = withoutAdminOnly(asAdminSees.data.attributes);
    expect(await response.json()).toEqual({ data: { ...asAdminSees.data, attributes } });
    expect(attributes).toEqual(user.attributes);
  });

  it('PATCH /v1/users/me changes name and metadata, and the next token carries them', async () => {
    const { t, api } = scenario;
    const user = await api.createUser({ name: 'Ann', metadata: { theme: 'dark' }, app: { plan: 'pro' } });
    const session = await api.loginAs(user);
    t.clock.advance(1);
    const response = await api.patchMe(session.accessToken, {
      name: 'Ann B.',
      metadata: { theme: 'light', lang: 'de' },
    });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({
      data: {
        type: 'users',
        id: user.id,
        attributes: {
          ...user.attributes,
          name: 'Ann B.',
          metadata: { theme: 'light', lang: 'de' },
          updated: t.clock.now().toISOString(),
        },
      },
    });

    const next = await sessionOf(await api.refresh(session.refreshToken));
    expect(claimsOf(next.accessToken)).toMatchObject({
      name: 'Ann B.',
      metadata: { theme: 'light', lang: 'de' },
      app: { plan: 'pro' },
    });
  });

  it.each([
    ['app', { app: { plan: 'enterprise' } }],
    ['active', { active: 0 }],
    ['email', { email: 'someone-else@example.com' }],
    ['app', { name: 'Sneaky', metadata: { x: 1 }, app: { plan: 'enterprise' } }],
  ])('PATCH /v1/users/me with %s is refused with 403 and changes nothing: %j', async (attribute, attributes) => {
    const { api } = scenario;
    const user = await api.createUser({ name: 'Ann', metadata: { theme: 'dark' }, app: { plan: 'pro' } });
    const { accessToken } = await api.loginAs(user);
    await expectError(await api.patchMe(accessToken, attributes), 403, 'forbidden', {
      detail: `Only an administrator can change ${attribute}.`,
    });
    expect(await api.stored(accessToken)).toEqual(user.attributes);
  });

  it('PATCH /v1/users/me refuses attributes a user resource does not have (422) and a document naming another user (409)', async () => {
    const { api } = scenario;
    const user = await api.createUser();
    const { accessToken } = await api.loginAs(user);
    await expectError(await api.patchMe(accessToken, { role: 'admin' }), 422, 'invalid_attribute', {
      pointer: '/data/attributes/role',
    });
    const other = await api.createUser();
    const response = await api.patchMe(accessToken, { name: 'Mallory' }, { id: other.id });
    await expectError(response, 409, 'resource_conflict', { pointer: '/data/id' });
    expect(await api.stored(accessToken)).toEqual(user.attributes);
  });

  it.each([
    ['without current_password', { password: NEW_PASSWORD }],
    ['with a wrong current_password', { password: NEW_PASSWORD, current_password: 'not my password' }],
  ])('a password change %s answers 422 pointing at current_password and changes nothing', async (_, attributes) => {
    const { api } = scenario;
    const user = await api.createUser();
    const { accessToken } = await api.loginAs(user);
    await expectError(await api.patchMe(accessToken, attributes), 422, 'invalid_attribute', {
      pointer: CURRENT_PASSWORD_POINTER,
      detail: 'current_password is missing or wrong',
    });
    expect((await api.login(user.email, USER_PASSWORD)).status).toBe(200);
    await expectError(await api.login(user.email, NEW_PASSWORD), 401, 'invalid_credentials');
  });

  it("a password change ends the user's other sessions, access tokens included, and keeps the current one", async () => {
    const { api } = scenario;
    const user = await api.createUser();
    const current = await api.loginAs(user);
    const other = await api.loginAs(user);

    const response = await api.patchMe(current.accessToken, {
      password: NEW_PASSWORD,
      current_password: USER_PASSWORD,
    });
    expect(response.status).toBe(200);

    await expectError(await api.me(other.accessToken), 401, 'invalid_token');
    await expectError(await api.refresh(other.refreshToken), 401, 'invalid_token');
    expect((await api.me(current.accessToken)).status).toBe(200);
    const refreshed = await sessionOf(await api.refresh(current.refreshToken));
    expect((await api.me(refreshed.accessToken)).status).toBe(200);

    await expectError(await api.login(user.email, USER_PASSWORD), 401, 'invalid_credentials');
    expect((await api.login(user.email, NEW_PASSWORD)).status).toBe(200);
  });
});
