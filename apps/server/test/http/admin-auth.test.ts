import { describe, expect, it } from 'vitest';
import { BACKENDS } from '../support/test-application';
import type { UserResource } from '@uas/client';
import { BEARER_CHALLENGE, INVALID_TOKEN_CHALLENGE, refreshBody } from '../support/wire';
import { errorsLike } from '../support/error-expectations';
import { jsonInit, usersDocument } from '@uas/adapters-http/testing';
import { scenarioApplication } from '../support/scenario';
import type { AdminClient } from '../support/admin-client';
import type { Session } from '../support/admin-api';

/** What a route needs to be called: its target user, the admin's session and a fresh email. */
interface RouteContext {
  user: UserResource;
  admin: Session;
  email: string;
}

/** Every admin route behind the Bearer check, with a request it would otherwise accept. */
const routes: [name: string, status: number, request: (c: RouteContext) => [path: string, init: RequestInit]][] = [
  ['GET /v1/admin/users', 200, () => ['/v1/admin/users', {}]],
  [
    'POST /v1/admin/users',
    201,
    (c) => ['/v1/admin/users', jsonInit('POST', usersDocument({ email: c.email, password: 'password-123' }))],
  ],
  ['GET /v1/admin/users/{uuid}', 200, (c) => [`/v1/admin/users/${c.user.id}`, {}]],
  [
    'PATCH /v1/admin/users/{uuid}',
    200,
    (c) => [`/v1/admin/users/${c.user.id}`, jsonInit('PATCH', usersDocument({ name: 'Changed' }))],
  ],
  ['DELETE /v1/admin/users/{uuid}', 204, (c) => [`/v1/admin/users/${c.user.id}`, { method: 'DELETE' }]],
  [
    'DELETE /v1/admin/refresh',
    204,
    (c) => ['/v1/admin/refresh', jsonInit('DELETE', refreshBody(c.admin.refreshToken))],
  ],
  [
    'DELETE /v1/admin/token/refresh',
    204,
    (c) => ['/v1/admin/token/refresh', jsonInit('DELETE', refreshBody(c.admin.refreshToken))],
  ],
  ['DELETE /v1/admin/logout/{uuid}', 204, (c) => [`/v1/admin/logout/${c.admin.id}`, { method: 'DELETE' }]],
];

interface Refusal {
  name: string;
  authorization: (client: AdminClient, c: RouteContext) => Promise<string | undefined>;
  status: number;
  code: string;
  challenge: string | null;
}

const refusals: Refusal[] = [
  {
    name: 'no Authorization header',
    authorization: async () => undefined,
    status: 401,
    code: 'missing_token',
    challenge: BEARER_CHALLENGE,
  },
  {
    name: 'a Basic header with the admin credentials',
    authorization: async (client) => `Basic ${btoa(`${client.t.admin.email}:${client.t.admin.password}`)}`,
    status: 401,
    code: 'missing_token',
    challenge: BEARER_CHALLENGE,
  },
  {
    name: '"Bearer" with no token',
    authorization: async () => 'Bearer ',
    status: 401,
    code: 'missing_token',
    challenge: BEARER_CHALLENGE,
  },
  {
    name: 'the token without the Bearer scheme',
    authorization: async (_, c) => c.admin.accessToken,
    status: 401,
    code: 'missing_token',
    challenge: BEARER_CHALLENGE,
  },
  {
    name: 'a garbage token',
    authorization: async () => 'Bearer garbage-garbage-garbage',
    status: 401,
    code: 'invalid_token',
    challenge: INVALID_TOKEN_CHALLENGE,
  },
  {
    name: 'the admin refresh token as access token',
    authorization: async (_, c) => `Bearer ${c.admin.refreshToken}`,
    status: 401,
    code: 'invalid_token',
    challenge: INVALID_TOKEN_CHALLENGE,
  },
  {
    name: 'an expired admin access token',
    authorization: async (client) => {
      const { accessToken } = await client.adminSession();
      client.t.clock.advance(900 + 5 + 1);
      return `Bearer ${accessToken}`;
    },
    status: 401,
    code: 'invalid_token',
    challenge: INVALID_TOKEN_CHALLENGE,
  },
  {
    name: 'an end user access token from POST /v1/login',
    authorization: async (client, c) => `Bearer ${(await client.userSession(c.user.attributes.email)).accessToken}`,
    status: 403,
    code: 'forbidden',
    challenge: null,
  },
];

let sequence = 0;

describe.each(BACKENDS)('authentication of the admin routes on %s', (backend) => {
  const s = scenarioApplication(backend);

  async function context(): Promise<RouteContext> {
    sequence += 1;
    const user = await s.client.createUser({ email: `target-${sequence}@example.com`, name: 'Target' });
    return { user, admin: await s.client.adminSession(), email: `created-${sequence}@example.com` };
  }

  describe.each(routes)('%s', (_, successStatus, request) => {
    it.each(refusals.map((refusal) => [refusal.name, refusal.status, refusal] as const))(
      'refuses %s with %i, and does nothing',
      async (__, status, { authorization, code, challenge }) => {
        const c = await context();
        const header = await authorization(s.client, c);
        const [path, init] = request(c);
        const headers = new Headers(init.headers);
        if (header !== undefined) headers.set('Authorization', header);
        const response = await s.client.request(path, { ...init, headers });
        expect(response.status).toBe(status);
        expect(response.headers.get('www-authenticate')).toBe(challenge);
        expect(await response.json()).toEqual(errorsLike([status, code]));

        const token = await s.client.adminToken();
        const { data } = await (await s.client.get(`/v1/admin/users/${c.user.id}`, token)).json();
        // Nothing changed but, when the refused token was the user's own, the login that got it.
        expect(data).toEqual({
          ...c.user,
          attributes: { ...c.user.attributes, last_login: data.attributes.last_login },
        });
        expect(
          (await s.client.get(`/v1/admin/users?search[email]=${c.email}`, token).then((r) => r.json())).meta.total,
        ).toBe(0);
        expect((await s.client.refresh(c.admin.refreshToken)).status).toBe(200);
      },
    );

    it(`answers ${successStatus} with the admin access token`, async () => {
      const c = await context();
      const [path, init] = request(c);
      const response = await s.client.request(path, {
        ...init,
        headers: { ...Object.fromEntries(new Headers(init.headers)), Authorization: `Bearer ${c.admin.accessToken}` },
      });
      expect(response.status).toBe(successStatus);
    });
  });
});
