import { beforeEach, describe, expect, it } from '../testing/test-api.ts';
import { buildDomain, issueSources, pointerTo, rejectionOf, type Domain } from '../testing/domain-fixture.ts';
import type { Initiator } from '../audit/audit-event.ts';
import { NotFoundError, ValidationError } from '../shared/errors.ts';
import { OAUTH_CLIENT_SECRET_PURPOSE, type OAuthClient, type OAuthClientDraft } from './oauth-client.ts';

const BY: Initiator = {
  actor: { type: 'admin', id: '00000000-0000-4000-8000-0000000000aa' },
  request: { requestId: 'r', clientAddress: null, userAgent: null },
};
const CRM: OAuthClientDraft = {
  name: 'Acme CRM',
  type: 'confidential',
  redirectUris: ['https://crm.acme.test/callback', 'https://crm.acme.test/callback'],
};
const CLI: OAuthClientDraft = {
  name: 'Acme CLI',
  type: 'public',
  applicationType: 'native',
  redirectUris: ['http://127.0.0.1/callback'],
  scopes: ['offline_access'],
  firstParty: true,
};

describe('OAuthClientService', () => {
  let domain: Domain;
  beforeEach(() => {
    domain = buildDomain();
  });

  /** The audit trail, newest first. */
  const events = async () => (await domain.repositories.audit.list({ page: 1, size: 100 })).events;
  const opened = (client: OAuthClient) => domain.box.open(OAUTH_CLIENT_SECRET_PURPOSE, client.secret!, client.id);

  it('creates a confidential web client with a secret of 32 random bytes, answered once and stored only sealed under its id', async () => {
    const { client, secret } = await domain.oauthClients.create(CRM, BY);
    expect(client).toMatchObject({
      name: 'Acme CRM',
      type: 'confidential',
      applicationType: 'web',
      redirectUris: ['https://crm.acme.test/callback'],
      postLogoutRedirectUris: [],
      scopes: ['openid', 'email', 'profile'],
      firstParty: false,
    });
    expect(secret).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(JSON.stringify(client)).not.toContain(secret);
    expect(await opened(client)).toBe(secret);
    await rejectionOf(domain.box.open(OAUTH_CLIENT_SECRET_PURPOSE, client.secret!, 'another-id'), Error);
    expect(await domain.oauthClients.find(client.id)).toEqual(client);
    const second = await domain.oauthClients.create(CRM, BY);
    expect(second.secret).not.toBe(secret);
  });

  it('audits a creation with what the client is, showing of its secret only that it is set', async () => {
    const { client, secret } = await domain.oauthClients.create(CRM, BY);
    const [created] = await events();
    expect(created).toMatchObject({
      action: 'oauth_client.created',
      actor: BY.actor,
      target: { type: 'oauth_clients', id: client.id },
      changes: {
        name: { before: null, after: 'Acme CRM' },
        type: { before: null, after: 'confidential' },
        redirect_uris: { before: null, after: ['https://crm.acme.test/callback'] },
        client_secret: { before: null, after: 'set' },
      },
    });
    const trail = JSON.stringify(await events());
    expect(trail).not.toContain(secret);
    expect(trail).not.toContain(client.secret!.ciphertext);
  });

  it('creates a public native client without a secret, openid always among its scopes', async () => {
    const { client, secret } = await domain.oauthClients.create(CLI, BY);
    expect(secret).toBeNull();
    expect(client).toMatchObject({
      type: 'public',
      applicationType: 'native',
      scopes: ['openid', 'offline_access'],
      firstParty: true,
      secret: null,
    });
    expect((await events())[0]!.changes!['client_secret']).toBeUndefined();
  });

  it('refuses each bad attribute with its pointer, and stores nothing', async () => {
    const sources = await issueSources(
      domain.oauthClients.create({
        name: ' ',
        type: 'confidential',
        redirectUris: ['https://*.acme.test/cb'],
        postLogoutRedirectUris: ['javascript:alert(1)'],
        scopes: ['admin'],
      }),
    );
    expect(sources).toEqual(['name', 'redirect_uris', 'post_logout_redirect_uris', 'scopes'].map(pointerTo));
    expect(await domain.oauthClients.list()).toEqual([]);
    expect(await events()).toEqual([]);
  });

  describe('update', () => {
    it('changes what the patch names, keeps the secret, and audits only that', async () => {
      const { client } = await domain.oauthClients.create(CRM, BY);
      domain.clock.advance(1);
      const updated = await domain.oauthClients.update(
        client.id,
        { redirectUris: ['https://crm.acme.test/cb2'], scopes: ['email', 'metadata'], firstParty: true },
        BY,
      );
      expect(updated).toMatchObject({
        name: 'Acme CRM',
        redirectUris: ['https://crm.acme.test/cb2'],
        scopes: ['openid', 'email', 'metadata'],
        firstParty: true,
      });
      expect(updated.secret).toEqual(client.secret);
      expect(updated.updated.getTime()).toBeGreaterThan(client.updated.getTime());
      expect((await events())[0]).toMatchObject({
        action: 'oauth_client.updated',
        changes: {
          redirect_uris: { before: ['https://crm.acme.test/callback'], after: ['https://crm.acme.test/cb2'] },
          scopes: { before: ['openid', 'email', 'profile'], after: ['openid', 'email', 'metadata'] },
          first_party: { before: false, after: true },
        },
      });
      expect(Object.keys((await events())[0]!.changes!)).toEqual(['redirect_uris', 'scopes', 'first_party']);
    });

    it('records nothing when nothing changes', async () => {
      const { client } = await domain.oauthClients.create(CRM, BY);
      expect(await domain.oauthClients.update(client.id, { name: 'Acme CRM' }, BY)).toEqual(client);
      expect(await events()).toHaveLength(1);
    });

    it('judges redirect URIs by the stored application type', async () => {
      const web = (await domain.oauthClients.create(CRM, BY)).client;
      const native = (await domain.oauthClients.create(CLI, BY)).client;
      const loopback = { redirectUris: ['http://localhost:4000/callback'] };
      expect(await issueSources(domain.oauthClients.update(web.id, loopback, BY))).toEqual([
        pointerTo('redirect_uris'),
      ]);
      expect((await domain.oauthClients.update(native.id, loopback, BY)).redirectUris).toEqual(loopback.redirectUris);
    });

    it('answers not found for an unknown client', async () => {
      await rejectionOf(
        domain.oauthClients.update('00000000-0000-4000-8000-000000000404', { name: 'x' }),
        NotFoundError,
      );
    });
  });

  describe('rotateSecret', () => {
    it('replaces the secret by a new one answered once, and audits it as set to set', async () => {
      const { client, secret: first } = await domain.oauthClients.create(CRM, BY);
      const { client: rotated, secret } = await domain.oauthClients.rotateSecret(client.id, BY);
      expect(secret).toMatch(/^[A-Za-z0-9_-]{43}$/);
      expect(secret).not.toBe(first);
      expect(await opened(rotated)).toBe(secret);
      expect(await opened(await domain.oauthClients.find(client.id))).toBe(secret);
      const [event] = await events();
      expect(event).toMatchObject({
        action: 'oauth_client.secret_rotated',
        target: { type: 'oauth_clients', id: client.id },
        changes: { client_secret: { before: 'set', after: 'set' } },
      });
      const trail = JSON.stringify(await events());
      for (const hidden of [first!, secret!, rotated.secret!.ciphertext]) expect(trail).not.toContain(hidden);
    });

    it('refuses a public client, which has no secret', async () => {
      const { client } = await domain.oauthClients.create(CLI, BY);
      await rejectionOf(domain.oauthClients.rotateSecret(client.id, BY), ValidationError);
      expect((await domain.oauthClients.find(client.id)).secret).toBeNull();
    });

    it('answers not found for an unknown client', async () => {
      await rejectionOf(domain.oauthClients.rotateSecret('00000000-0000-4000-8000-000000000404'), NotFoundError);
    });
  });

  describe('delete', () => {
    it('removes the client and audits what it was', async () => {
      const { client } = await domain.oauthClients.create(CRM, BY);
      await domain.oauthClients.delete(client.id, BY);
      await rejectionOf(domain.oauthClients.find(client.id), NotFoundError);
      expect((await events())[0]).toMatchObject({
        action: 'oauth_client.deleted',
        target: { type: 'oauth_clients', id: client.id },
        changes: { name: { before: 'Acme CRM', after: null }, client_secret: { before: 'set', after: null } },
      });
      await rejectionOf(domain.oauthClients.delete(client.id, BY), NotFoundError);
    });
  });

  it('lists clients oldest first', async () => {
    const crm = (await domain.oauthClients.create(CRM, BY)).client;
    domain.clock.advance(1);
    const cli = (await domain.oauthClients.create(CLI, BY)).client;
    expect((await domain.oauthClients.list()).map((client) => client.id)).toEqual([crm.id, cli.id]);
  });
});
