import { describe, expect, it } from 'vitest';
import type { JWTPayload } from 'jose';
import { BACKENDS, type TestApplication } from '../support/test-application';
import { claimsOf, nowSeconds } from '../support/user-client';
import { expectError } from '../support/error-expectations';
import { UNKNOWN_ID } from '../support/wire';
import { scenarioApplication } from '../support/scenario';
import type { AdminClient } from '../support/admin-client';
import type { Session } from '../support/admin-api';
import {
  hmacSigned,
  publicKeyAsSecrets,
  resignedByService,
  resignedWithForeignKey,
  unsigned,
} from '../support/token-forgery';

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

/** The genuine token with its claims changed and its signature kept. */
function tampered(genuine: string, changes: JWTPayload): string {
  const [header, , signature] = genuine.split('.');
  return `${header}.${Buffer.from(JSON.stringify({ ...claimsOf(genuine), ...changes })).toString('base64url')}.${signature}`;
}

/** Forgeries made from a genuine token: what an attacker can make, and what only a key thief could. */
const attacks: [name: string, forge: (genuine: string, t: TestApplication) => Promise<string | string[]> | string][] = [
  ['alg: none with the claims of a genuine token', (genuine) => unsigned(genuine)],
  [
    'HS256 signed with the public key as the secret (stored JWK, published JWK, PEM)',
    async (genuine, t) => Promise.all((await publicKeyAsSecrets(t)).map((secret) => hmacSigned(genuine, secret))),
  ],
  [
    'a tampered payload (expiry a year later) under the genuine signature',
    (genuine, t) => tampered(genuine, { exp: nowSeconds(t) + 365 * 86_400 }),
  ],
  [
    'a tampered payload (another subject) under the genuine signature',
    (genuine) => tampered(genuine, { sub: UNKNOWN_ID }),
  ],
  ['the genuine token with its signature cut off', (genuine) => `${genuine.split('.').slice(0, 2).join('.')}.`],
  ["the service's kid on a signature by a key the service never made", (genuine) => resignedWithForeignKey(genuine)],
  [
    'an unknown kid, even over a signature by the service key',
    (genuine, t) => resignedByService(t, genuine, { header: { kid: UNKNOWN_ID } }),
  ],
  [
    'another issuer, signed by the service key',
    (genuine, t) => resignedByService(t, genuine, { claims: { iss: 'https://elsewhere.example' } }),
  ],
  [
    'another audience, signed by the service key',
    (genuine, t) => resignedByService(t, genuine, { claims: { aud: 'https://elsewhere.example' } }),
  ],
  [
    'an expiry in the past, signed by the service key',
    (genuine, t) => resignedByService(t, genuine, { claims: { exp: nowSeconds(t) - 60 } }),
  ],
];

describe.each(BACKENDS)('forged and misused tokens on %s', (backend) => {
  const s = scenarioApplication(backend);

  describe.each(targets)('as %s', (_, pick, present, userTokenStatus) => {
    it('accepts the genuine token the forgeries start from', async () => {
      expect((await present(s.client, pick(await s.client.adminSession()))).status).toBe(200);
    });

    it.each(attacks)('refuses %s with 401 invalid_token', async (__, forge) => {
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
