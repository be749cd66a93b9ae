import { beforeEach, describe, expect, it } from '../testing/test-api.ts';
import { buildDomain, rejectionOf, type Domain } from '../testing/domain-fixture.ts';
import type { Initiator } from '../audit/audit-event.ts';
import { NotFoundError } from '../shared/errors.ts';
import type { OpenIdRecordDraft } from './openid-record.ts';
import { GRANT_MODEL } from './application-grants.ts';

const ALICE = '00000000-0000-4000-8000-00000000a11c';
const BOB = '00000000-0000-4000-8000-000000000b0b';
const AS_ALICE: Initiator = {
  actor: { type: 'user', id: ALICE },
  request: { requestId: 'r', clientAddress: null, userAgent: null },
};

describe('ApplicationGrants', () => {
  let domain: Domain;
  let clientId: string;
  beforeEach(async () => {
    domain = buildDomain();
    const created = await domain.oauthClients.create({
      name: 'Acme CRM',
      type: 'confidential',
      redirectUris: ['https://crm.acme.test/callback'],
    });
    clientId = created.client.id;
  });

  const records = () => domain.repositories.openIdRecords;
  const now = () => domain.clock.now();
  /** A grant as oidc-provider stores it: its scopes in `openid.scope`, made at `iat` (seconds). */
  async function storeGrant(id: string, accountId: string, scope: string, client = clientId): Promise<void> {
    const iat = Math.floor(now().getTime() / 1000);
    const grant: OpenIdRecordDraft = {
      model: GRANT_MODEL,
      id,
      payload: { jti: id, kind: 'Grant', accountId, clientId: client, iat, exp: iat + 3600, openid: { scope } },
      grantId: id,
      uid: null,
      accountId,
      clientId: client,
      expires: new Date((iat + 3600) * 1000),
    };
    await records().upsert(grant);
  }
  /** A token of the grant, stored beside it: revoking the grant must remove it too. */
  async function storeToken(grantId: string, accountId: string): Promise<void> {
    await records().upsert({
      model: 'AccessToken',
      id: `at-${grantId}`,
      payload: { grantId, accountId, clientId },
      grantId,
      uid: null,
      accountId,
      clientId,
      expires: new Date(now().getTime() + 600_000),
    });
  }
  const events = async () => (await domain.repositories.audit.list({ page: 1, size: 100 })).events;

  it('lists the user’s grants with the client’s name, the scopes granted and when', async () => {
    await storeGrant('grant-1', ALICE, 'openid email offline_access');
    await storeGrant('grant-2', BOB, 'openid');
    expect(await domain.applicationGrants.list(ALICE)).toEqual([
      {
        id: clientId,
        clientId,
        clientName: 'Acme CRM',
        scopes: ['openid', 'email', 'offline_access'],
        created: new Date(Math.floor(now().getTime() / 1000) * 1000),
      },
    ]);
    expect(await domain.applicationGrants.list('00000000-0000-4000-8000-000000000000')).toEqual([]);
  });

  it('leaves out expired grants', async () => {
    await storeGrant('grant-1', ALICE, 'openid');
    domain.clock.advance(3601);
    expect(await domain.applicationGrants.list(ALICE)).toEqual([]);
  });

  it('lists one entry per application: the scopes of all its grants, since the first', async () => {
    const other = (
      await domain.oauthClients.create({ name: 'Other', type: 'public', redirectUris: ['https://o.test/cb'] })
    ).client.id;
    const first = new Date(Math.floor(now().getTime() / 1000) * 1000);
    await storeGrant('grant-1', ALICE, 'openid email');
    domain.clock.advance(60);
    await storeGrant('grant-2', ALICE, 'openid', other);
    await storeGrant('grant-3', ALICE, 'openid profile offline_access');
    expect(await domain.applicationGrants.list(ALICE)).toEqual([
      {
        id: clientId,
        clientId,
        clientName: 'Acme CRM',
        scopes: ['openid', 'email', 'profile', 'offline_access'],
        created: first,
      },
      {
        id: other,
        clientId: other,
        clientName: 'Other',
        scopes: ['openid'],
        created: new Date(first.getTime() + 60_000),
      },
    ]);
  });

  it('revokes every grant the user gave the application, one event each; other applications and users keep theirs', async () => {
    const other = (
      await domain.oauthClients.create({ name: 'Other', type: 'public', redirectUris: ['https://o.test/cb'] })
    ).client.id;
    for (const grant of ['grant-1', 'grant-2']) {
      await storeGrant(grant, ALICE, 'openid');
      await storeToken(grant, ALICE);
    }
    await storeGrant('grant-o', ALICE, 'openid', other);
    await storeGrant('grant-b', BOB, 'openid');
    await domain.applicationGrants.revoke(ALICE, clientId, AS_ALICE);
    for (const grant of ['grant-1', 'grant-2'])
      expect(await records().find('AccessToken', `at-${grant}`, now())).toBeNull();
    expect((await domain.applicationGrants.list(ALICE)).map((application) => application.id)).toEqual([other]);
    expect((await domain.applicationGrants.list(BOB)).map((application) => application.id)).toEqual([clientId]);
    const revoked = (await events()).filter((event) => event.action === 'oauth_grant.revoked');
    expect(revoked.map((event) => event.changes?.grant_id?.before).sort()).toEqual(['grant-1', 'grant-2']);
  });

  it('revokes the user’s grant with its tokens, audited about the user', async () => {
    await storeGrant('grant-1', ALICE, 'openid email');
    await storeToken('grant-1', ALICE);
    await domain.applicationGrants.revoke(ALICE, clientId, AS_ALICE);
    expect(await domain.applicationGrants.list(ALICE)).toEqual([]);
    expect(await records().find('AccessToken', 'at-grant-1', now())).toBeNull();
    expect((await events())[0]).toMatchObject({
      action: 'oauth_grant.revoked',
      actor: AS_ALICE.actor,
      target: { type: 'users', id: ALICE },
      changes: {
        grant_id: { before: 'grant-1', after: null },
        client_id: { before: clientId, after: null },
        reason: { before: null, after: 'user' },
      },
    });
  });

  it('answers not found for an application only another user let in, and leaves it as it was', async () => {
    await storeGrant('grant-b', BOB, 'openid');
    await storeToken('grant-b', BOB);
    await rejectionOf(domain.applicationGrants.revoke(ALICE, clientId, AS_ALICE), NotFoundError);
    expect((await domain.applicationGrants.list(BOB)).map((grant) => grant.id)).toEqual([clientId]);
    expect(await records().find('AccessToken', 'at-grant-b', now())).not.toBeNull();
    expect((await events()).map((event) => event.action)).not.toContain('oauth_grant.revoked');
  });

  it('answers not found for an application that has, or no longer has, no grant of the user', async () => {
    await rejectionOf(domain.applicationGrants.revoke(ALICE, 'nope', AS_ALICE), NotFoundError);
    await storeGrant('grant-1', ALICE, 'openid');
    await domain.applicationGrants.revoke(ALICE, clientId, AS_ALICE);
    await rejectionOf(domain.applicationGrants.revoke(ALICE, clientId, AS_ALICE), NotFoundError);
  });

  it('answers not found when the user holds only tokens, no grant, of the application', async () => {
    await storeToken('grant-1', ALICE);
    await rejectionOf(domain.applicationGrants.revoke(ALICE, clientId, AS_ALICE), NotFoundError);
    expect(await records().find('AccessToken', 'at-grant-1', now())).not.toBeNull();
  });
});
