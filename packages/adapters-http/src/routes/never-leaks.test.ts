import { describe, it } from 'vitest';
import { bearer, createTestApp, expectNoSecrets, jsonInit, loginDocument, usersDocument } from '../testing';

const USER_PASSWORD = 'user-password-1';
const NEW_PASSWORD = 'brand-new-password';

/**
 * Responses that take a password or a token as input, and must give none back (nor a hash):
 * errors included, since an echoed input is the classic leak.
 */
describe('no response carries a password, a hash or a token it was sent', () => {
  const scenarios: [string, (s: Awaited<ReturnType<typeof setup>>) => [string, RequestInit]][] = [
    ['a failed login', () => ['/v1/login', jsonInit('POST', loginDocument('ann@example.com', 'wrong-password-9'))]],
    [
      'a login with a password of the wrong shape',
      () => [
        '/v1/admin/login',
        jsonInit('POST', usersDocument({ email: 'a@example.com', password: ['wrong-password-9'] })),
      ],
    ],
    [
      'a create with a bad password',
      (s) => [
        '/v1/admin/users',
        jsonInit('POST', usersDocument({ email: 'x', password: 'wrong-password-9'.repeat(6) }), s.admin),
      ],
    ],
    [
      'a create with a password of the wrong type',
      (s) => [
        '/v1/admin/users',
        jsonInit('POST', usersDocument({ email: 'b@example.com', password: { p: 'wrong-password-9' } }), s.admin),
      ],
    ],
    [
      'a create',
      (s) => [
        '/v1/admin/users',
        jsonInit('POST', usersDocument({ email: 'c@example.com', password: NEW_PASSWORD }), s.admin),
      ],
    ],
    [
      'a password change',
      (s) => [`/v1/admin/users/${s.userId}`, jsonInit('PATCH', usersDocument({ password: NEW_PASSWORD }), s.admin)],
    ],
    [
      'a self-service password change with a wrong current password',
      (s) => [
        '/v1/users/me',
        jsonInit('PATCH', usersDocument({ password: NEW_PASSWORD, current_password: 'wrong-password-9' }), s.user),
      ],
    ],
    ['a refresh with a foreign token', () => ['/v1/refresh', jsonInit('POST', { refreshToken: 'wrong-password-9' })]],
    [
      'a revoke with an access token as refresh token',
      (s) => ['/v1/refresh', jsonInit('DELETE', { refreshToken: s.userToken }, s.user)],
    ],
    ['an admin route with a user token', (s) => ['/v1/admin/users', { headers: s.user }]],
    ['the user list', (s) => ['/v1/admin/users', { headers: s.admin }]],
    ['the caller', (s) => ['/v1/users/me', { headers: s.user }]],
  ];

  async function setup() {
    const t = await createTestApp();
    const user = await t.createUser({ email: 'ann@example.com', password: USER_PASSWORD });
    const admin = await t.loginAdmin();
    const userSession = await t.loginUser('ann@example.com', USER_PASSWORD);
    return {
      t,
      userId: user.id,
      hash: user.passwordHash,
      admin: bearer(admin.accessToken),
      user: bearer(userSession.accessToken),
      userToken: userSession.accessToken,
      adminToken: admin.accessToken,
    };
  }

  it.each(scenarios)('%s', async (_, build) => {
    const s = await setup();
    const [path, init] = build(s);
    const response = await s.t.app.request(path, init);
    await expectNoSecrets(response, [
      'wrong-password-9',
      NEW_PASSWORD,
      USER_PASSWORD,
      s.hash,
      'plain:',
      'passwordHash',
      s.userToken,
      s.adminToken,
    ]);
  });
});
