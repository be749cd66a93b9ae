import type * as v from 'valibot';
import { beforeEach, describe, expect, it } from 'vitest';
import type { applicationGrantListDocumentSchema } from '../presenters/application-grant.presenter';
import { bearer, createTestApp, expectNoSecrets, storeGrant, type TestApp } from '../testing';

type GrantList = v.InferOutput<typeof applicationGrantListDocumentSchema>;

const PATH = '/v1/users/me/applications';

let t: TestApp;
let ann: { id: string; headers: Record<string, string> };
let bob: { id: string; headers: Record<string, string> };
let client: { id: string; secret: string };

async function signedIn(email: string) {
  const user = await t.createUser({ email });
  return { id: user.id, headers: bearer((await t.loginUser(email, 'user-password-1')).accessToken) };
}

beforeEach(async () => {
  t = await createTestApp();
  ann = await signedIn('ann@example.com');
  bob = await signedIn('bob@example.com');
  const created = await t.deps.oauthClients.create({
    name: 'Acme <b>CRM</b>',
    type: 'confidential',
    redirectUris: ['https://crm.example.com/callback'],
  });
  client = { id: created.client.id, secret: created.secret! };
});

const list = (headers: Record<string, string>) => t.app.request(PATH, { headers });
const revoke = (grant: string, headers: Record<string, string>) =>
  t.app.request(`${PATH}/${grant}`, { method: 'DELETE', headers });
const stillThere = async (grant: string) =>
  (await t.repositories.openIdRecords.find('AccessToken', `token-of-${grant}`, t.clock.now())) !== null;

describe('GET /v1/users/me/applications', () => {
  it('lists your applications once each, with the scopes of all your grants, never a secret', async () => {
    await storeGrant(t, { accountId: ann.id, clientId: client.id, scope: 'openid email offline_access' });
    const first = new Date(Math.floor(t.clock.now().getTime() / 1000) * 1000).toISOString();
    t.clock.advance(60);
    // A sign-in from a second browser: a second grant of the same application.
    await storeGrant(t, { accountId: ann.id, clientId: client.id, scope: 'openid profile' });
    await storeGrant(t, { accountId: bob.id, clientId: client.id, scope: 'openid' });
    const response = await list(ann.headers);
    expect(response.status).toBe(200);
    const body = (await response.clone().json()) as GrantList;
    expect(body).toEqual({
      data: [
        {
          type: 'application_grants',
          id: client.id,
          attributes: {
            client_id: client.id,
            client_name: 'Acme <b>CRM</b>',
            scopes: ['openid', 'email', 'offline_access', 'profile'],
            created: first,
          },
        },
      ],
      meta: { total: 1 },
    });
    const stored = await t.repositories.oauthClients.get(client.id);
    await expectNoSecrets(response, [client.secret, stored!.secret!.ciphertext, 'token-of-']);
  });

  it('answers an empty list to a user without grants', async () => {
    expect(await (await list(bob.headers)).json()).toEqual({ data: [], meta: { total: 0 } });
  });

  it('refuses a request without a token with 401, and an admin token with 403', async () => {
    await storeGrant(t, { accountId: ann.id, clientId: client.id, scope: 'openid' });
    expect((await t.app.request(PATH)).status).toBe(401);
    const admin = bearer((await t.loginAdmin()).accessToken);
    expect((await list(admin)).status).toBe(403);
  });
});

describe('DELETE /v1/users/me/applications/{client_id}', () => {
  it('revokes every grant you gave the application with their tokens, one event each; others keep theirs', async () => {
    const grants = [
      await storeGrant(t, { accountId: ann.id, clientId: client.id, scope: 'openid' }),
      await storeGrant(t, { accountId: ann.id, clientId: client.id, scope: 'openid email' }),
    ];
    const bobs = await storeGrant(t, { accountId: bob.id, clientId: client.id, scope: 'openid' });
    const response = await revoke(client.id, ann.headers);
    expect(response.status).toBe(204);
    expect(((await (await list(ann.headers)).json()) as GrantList).data).toEqual([]);
    for (const grant of grants) expect(await stillThere(grant)).toBe(false);
    expect(await stillThere(bobs)).toBe(true);
    const { events } = await t.repositories.audit.list({ page: 1, size: 10 });
    const revoked = events.filter((event) => event.action === 'oauth_grant.revoked');
    expect(revoked).toHaveLength(2);
    for (const event of revoked) {
      expect(event).toMatchObject({ actor: { type: 'user', id: ann.id }, target: { type: 'users', id: ann.id } });
    }
    expect((await revoke(client.id, ann.headers)).status).toBe(404);
  });

  it.each([
    ['an application only another user let in', async () => client.id],
    ['an application that never was', async () => 'client-nope'],
    [
      'a grant id, not a client id',
      async () => storeGrant(t, { accountId: bob.id, clientId: client.id, scope: 'openid' }),
    ],
    ['an id that cannot be one', async () => '..%2F..%2Fadmin'],
  ])('answers 404 for %s, revoking nothing', async (_case, idOf) => {
    const bobs = await storeGrant(t, { accountId: bob.id, clientId: client.id, scope: 'openid' });
    const response = await revoke(await idOf(), ann.headers);
    expect(response.status).toBe(404);
    expect((await response.json()).errors[0].code).toBe('not_found');
    expect(await stillThere(bobs)).toBe(true);
    const { events } = await t.repositories.audit.list({ page: 1, size: 10 });
    expect(events.map((event) => event.action)).not.toContain('oauth_grant.revoked');
  });

  it('refuses a request without a user token with 401, revoking nothing', async () => {
    const grant = await storeGrant(t, { accountId: ann.id, clientId: client.id, scope: 'openid' });
    expect((await t.app.request(`${PATH}/${client.id}`, { method: 'DELETE' })).status).toBe(401);
    expect(await stillThere(grant)).toBe(true);
  });
});
