import { describe, expect, it } from 'vitest';
import { BACKENDS } from '../support/test-application';
import { expectError } from '../support/error-expectations';
import { scenarioApplication } from '../support/scenario';
import type { AdminClient } from '../support/admin-client';
import type { Session } from '../support/admin-api';
import { FORGERIES } from '../support/token-forgery';

/**
 * Where a token is presented: as the Bearer access token of an admin route, or as a refresh
 * token; and what an end user's genuine token of that kind gets there.
 */
const targets: [
  name: string,
  pick: (session: Session) => string,
  present: (client: AdminClient, token: string) => Promise<Response>,
  userTokenStatus: number,
][] = [
  [
    'the Bearer access token of GET /v1/admin/users',
    (session) => session.accessToken,
    (client, token) => client.get('/v1/admin/users', token),
    403,
  ],
  [
    'the refresh token of POST /v1/admin/refresh',
    (session) => session.refreshToken,
    (client, token) => client.refresh(token),
    401,
  ],
  [
    'the refresh token of POST /v1/admin/token/refresh',
    (session) => session.refreshToken,
    (client, token) => client.refresh(token, '/v1/admin/token/refresh'),
    401,
  ],
];

describe.each(BACKENDS)('forged and misused tokens on %s', (backend) => {
  const s = scenarioApplication(backend);

  describe.each(targets)('as %s', (_, pick, present, userTokenStatus) => {
    it('accepts the genuine token the forgeries start from', async () => {
      expect((await present(s.client, pick(await s.client.adminSession()))).status).toBe(200);
    });

    it.each(FORGERIES)('refuses %s with 401 invalid_token', async (__, forge) => {
      const genuine = pick(await s.client.adminSession());
      for (const forged of [await forge(genuine, s.t)].flat()) {
        expect(forged).not.toBe(genuine);
        await expectError(await present(s.client, forged), 401, 'invalid_token');
      }
    });

    it('refuses the other kind of admin token (access for refresh, refresh for access) with 401', async () => {
      const session = await s.client.adminSession();
      const other = pick(session) === session.accessToken ? session.refreshToken : session.accessToken;
      expect((await present(s.client, other)).status).toBe(401);
    });

    it(`answers an end user's genuine token of that kind with ${userTokenStatus}`, async () => {
      const { attributes } = await s.client.createUser({ email: `victim-${crypto.randomUUID()}@example.com` });
      const response = await present(s.client, pick(await s.client.userSession(attributes.email)));
      expect(response.status).toBe(userTokenStatus);
    });
  });
});
