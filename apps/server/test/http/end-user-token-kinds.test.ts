import { bearer, jsonInit, usersDocument } from '@uas/adapters-http/testing';
import { beforeAll, describe, expect, it } from 'vitest';
import { BACKENDS } from '../support/test-application';
import { expectError } from '../support/error-expectations';
import { type Session, sessionOf } from '../support/admin-api';
import { userScenario } from '../support/user-client';

/** A request with the given bearer token, about the user and the admin of the scene. */
type Call = (token: string, scene: { user: string; admin: string; refreshToken: string }) => [string, RequestInit];

const ADMIN_ROUTES: [string, Call][] = [
  ['GET /v1/admin/users', (token) => ['/v1/admin/users', { headers: bearer(token) }]],
  ['GET /v1/admin/users/{id}', (token, { user }) => [`/v1/admin/users/${user}`, { headers: bearer(token) }]],
  [
    'POST /v1/admin/users',
    (token) => [
      '/v1/admin/users',
      jsonInit('POST', usersDocument({ email: 'new@example.com', password: 'password-1' }), bearer(token)),
    ],
  ],
  [
    'PATCH /v1/admin/users/{id}',
    (token, { user }) => [
      `/v1/admin/users/${user}`,
      jsonInit('PATCH', usersDocument({ app: { plan: 'x' } }), bearer(token)),
    ],
  ],
  [
    'DELETE /v1/admin/users/{id}',
    (token, { user }) => [`/v1/admin/users/${user}`, { method: 'DELETE', headers: bearer(token) }],
  ],
  [
    'DELETE /v1/admin/refresh',
    (token, { refreshToken }) => ['/v1/admin/refresh', jsonInit('DELETE', { refreshToken }, bearer(token))],
  ],
  [
    'DELETE /v1/admin/logout/{uuid}',
    (token, { admin }) => [`/v1/admin/logout/${admin}`, { method: 'DELETE', headers: bearer(token) }],
  ],
];

const USER_ROUTES: [string, Call][] = [
  ['GET /v1/users/me', (token) => ['/v1/users/me', { headers: bearer(token) }]],
  ['PATCH /v1/users/me', (token) => ['/v1/users/me', jsonInit('PATCH', usersDocument({ name: 'x' }), bearer(token))]],
  [
    'DELETE /v1/refresh',
    (token, { refreshToken }) => ['/v1/refresh', jsonInit('DELETE', { refreshToken }, bearer(token))],
  ],
];

describe.each(BACKENDS)('user tokens and admin tokens each stay where they belong, on %s', (backend) => {
  const scenario = userScenario(backend);
  let user: Session;
  let admin: Session;
  beforeAll(async () => {
    const { api } = scenario;
    user = await api.loginAs(await api.createUser({ name: 'Ann', app: { plan: 'free' } }));
    admin = await api.client.adminSession();
  });

  const scene = () => ({ user: user.id, admin: admin.id, refreshToken: user.refreshToken });
  /** What the admin sees: the user and how many users there are. */
  const adminView = async () => ({
    user: await (await scenario.api.asAdmin('GET', `/v1/admin/users/${user.id}`)).json(),
    total: (await (await scenario.api.asAdmin('GET', '/v1/admin/users')).json()).meta.total,
  });

  it.each(ADMIN_ROUTES)('a user token on %s is refused with 403, and nothing changes', async (_, call) => {
    const { api } = scenario;
    const before = await adminView();
    await expectError(await api.client.request(...call(user.accessToken, scene())), 403, 'forbidden', {
      detail: 'A user token cannot be used here.',
    });
    expect(await adminView()).toEqual(before);
    expect((await api.client.get('/v1/admin/users', admin.accessToken)).status).toBe(200);
    // The user's refresh token still works (and the scene carries on with its successor).
    user = await sessionOf(await api.refresh(user.refreshToken));
  });

  it.each(USER_ROUTES)('an admin token on %s is refused with 403, and nothing changes', async (_, call) => {
    const { api } = scenario;
    await expectError(await api.client.request(...call(admin.accessToken, scene())), 403, 'forbidden', {
      detail: 'An admin token cannot be used here.',
    });
    expect(await api.stored(user.accessToken)).toMatchObject({ name: 'Ann', app: { plan: 'free' } });
    user = await sessionOf(await api.refresh(user.refreshToken));
  });

  it.each([...ADMIN_ROUTES, ...USER_ROUTES])(
    'a refresh token as the bearer of %s is refused with 401',
    async (_, call) => {
      const { api } = scenario;
      for (const refreshToken of [user.refreshToken, admin.refreshToken]) {
        await expectError(await api.client.request(...call(refreshToken, scene())), 401, 'invalid_token');
      }
    },
  );

  it('a user refresh token is refused at /v1/admin/refresh, an admin refresh token at /v1/refresh (401)', async () => {
    const { api } = scenario;
    await expectError(await api.client.refresh(user.refreshToken), 401, 'invalid_token');
    await expectError(await api.refresh(admin.refreshToken), 401, 'invalid_token');
  });

  it('admin credentials do not log in at /v1/login, nor user credentials at /v1/admin/login (401)', async () => {
    const { t, api } = scenario;
    await expectError(await api.login(t.admin.email, t.admin.password), 401, 'invalid_credentials');
    const created = await api.createUser();
    await expectError(await api.client.login(created.email, created.password), 401, 'invalid_credentials');
  });
});
