import { beforeEach, describe, expect, it } from '../testing/test-api.ts';
import {
  buildDomain,
  issueSources,
  pointerTo,
  PUBLIC_URL,
  rejectionOf,
  type Domain,
} from '../testing/domain-fixture.ts';
import type { Initiator } from '../audit/audit-event.ts';
import { NotFoundError, SlugTakenError, ValidationError } from '../shared/errors.ts';
import type { IdentityProvider, IdentityProviderDraft } from './identity-provider.ts';
import { IDENTITY_PROVIDER_SECRET_PURPOSE } from './identity-provider-service.ts';

const BY: Initiator = {
  actor: { type: 'admin', id: '00000000-0000-4000-8000-0000000000aa' },
  request: { requestId: 'r', clientAddress: null, userAgent: null },
};
const SECRET = 'gho-client-secret-7f3a9c';
const GITHUB: IdentityProviderDraft = { slug: 'github', kind: 'github', clientId: 'Iv1.abc', clientSecret: SECRET };
const OIDC: IdentityProviderDraft = { slug: 'acme', kind: 'oidc', issuer: 'https://sso.acme.test', clientId: 'uas' };

describe('IdentityProviderService', () => {
  let domain: Domain;
  beforeEach(() => {
    domain = buildDomain();
  });

  /** The audit trail, newest first. */
  const events = async () => (await domain.repositories.audit.list({ page: 1, size: 100 })).events;
  const opened = (provider: IdentityProvider) =>
    domain.box.open(IDENTITY_PROVIDER_SECRET_PURPOSE, provider.clientSecret!, provider.id);

  it('creates an enabled provider without auto_link, its secret stored only sealed under its id, and audits it without the secret', async () => {
    const provider = await domain.identityProviders.create({ ...GITHUB, scopes: ['read:org', 'read:org'] }, BY);
    expect(provider).toMatchObject({
      slug: 'github',
      kind: 'github',
      issuer: null,
      clientId: 'Iv1.abc',
      scopes: ['read:org'],
      enabled: true,
      autoLink: false,
    });
    expect(JSON.stringify(provider)).not.toContain(SECRET);
    expect(await opened(provider)).toBe(SECRET);
    await rejectionOf(domain.box.open(IDENTITY_PROVIDER_SECRET_PURPOSE, provider.clientSecret!, 'another-id'), Error);
    expect(await domain.identityProviders.find(provider.id)).toEqual(provider);
    const [created] = await events();
    expect(created).toMatchObject({
      action: 'identity_provider.created',
      actor: BY.actor,
      target: { type: 'identity_providers', id: provider.id },
      changes: {
        slug: { before: null, after: 'github' },
        kind: { before: null, after: 'github' },
        client_id: { before: null, after: 'Iv1.abc' },
        client_secret: { before: null, after: 'set' },
        enabled: { before: null, after: true },
        auto_link: { before: null, after: false },
      },
    });
    expect(JSON.stringify(await events())).not.toContain(SECRET);
  });

  it('creates a generic OIDC provider as a public client (no secret)', async () => {
    const provider = await domain.identityProviders.create(OIDC, BY);
    expect(provider).toMatchObject({ kind: 'oidc', issuer: 'https://sso.acme.test', clientSecret: null });
    expect((await events())[0]!.changes!['client_secret']).toBeUndefined();
  });

  it('refuses each bad attribute with its pointer, and stores nothing', async () => {
    const sources = await issueSources(
      domain.identityProviders.create({
        slug: 'Not A Slug',
        kind: 'oidc',
        issuer: 'http://sso.acme.test',
        clientId: '',
        scopes: ['has space'],
      }),
    );
    expect(sources).toEqual(['slug', 'issuer', 'client_id', 'scopes'].map(pointerTo));
    expect(await domain.identityProviders.list()).toEqual([]);
    expect(await events()).toEqual([]);
  });

  it('accepts an http issuer where the operator allows it (IDENTITY_PROVIDER_ALLOW_HTTP)', async () => {
    domain = buildDomain({ identityProviderIssuers: { allowHttp: true } });
    const provider = await domain.identityProviders.create({ ...OIDC, issuer: 'http://127.0.0.1:9400' });
    expect(provider.issuer).toBe('http://127.0.0.1:9400');
  });

  it('refuses a second provider with a slug taken', async () => {
    await domain.identityProviders.create(GITHUB, BY);
    await rejectionOf(domain.identityProviders.create({ ...OIDC, slug: 'github' }, BY), SlugTakenError);
    expect(await domain.identityProviders.list()).toHaveLength(1);
  });

  it('builds the callback URL to register at the provider on PUBLIC_URL', async () => {
    const provider = await domain.identityProviders.create(GITHUB, BY);
    expect(domain.identityProviders.callbackUrl(provider)).toBe(`${PUBLIC_URL}v1/oauth/github/callback`);
  });

  describe('update', () => {
    it('changes what the patch names and audits only that', async () => {
      const provider = await domain.identityProviders.create(GITHUB, BY);
      domain.clock.advance(1);
      const updated = await domain.identityProviders.update(
        provider.id,
        { enabled: false, autoLink: true, scopes: ['read:org'] },
        BY,
      );
      expect(updated).toMatchObject({ enabled: false, autoLink: true, scopes: ['read:org'], clientId: 'Iv1.abc' });
      expect(updated.clientSecret).toEqual(provider.clientSecret);
      expect(updated.updated.getTime()).toBeGreaterThan(provider.updated.getTime());
      expect((await events())[0]).toMatchObject({
        action: 'identity_provider.updated',
        changes: {
          enabled: { before: true, after: false },
          auto_link: { before: false, after: true },
          scopes: { before: [], after: ['read:org'] },
        },
      });
      expect(Object.keys((await events())[0]!.changes!)).toEqual(['scopes', 'enabled', 'auto_link']);
    });

    it('replaces the secret, auditing it as set to set, never the secret', async () => {
      const provider = await domain.identityProviders.create(GITHUB, BY);
      const updated = await domain.identityProviders.update(provider.id, { clientSecret: 'the-new-secret' }, BY);
      expect(await opened(updated)).toBe('the-new-secret');
      expect((await events())[0]!.changes).toEqual({ client_secret: { before: 'set', after: 'set' } });
      expect(JSON.stringify(await events())).not.toContain('the-new-secret');
    });

    it('removes the secret of a generic OIDC provider, not of a preset', async () => {
      const oidc = await domain.identityProviders.create({ ...OIDC, clientSecret: SECRET }, BY);
      expect((await domain.identityProviders.update(oidc.id, { clientSecret: null }, BY)).clientSecret).toBeNull();
      const github = await domain.identityProviders.create(GITHUB, BY);
      expect(await issueSources(domain.identityProviders.update(github.id, { clientSecret: null }, BY))).toEqual([
        pointerTo('client_secret'),
      ]);
      expect(await issueSources(domain.identityProviders.update(oidc.id, { issuer: null }, BY))).toEqual([
        pointerTo('issuer'),
      ]);
      expect(await opened(await domain.identityProviders.find(github.id))).toBe(SECRET);
    });

    it('answers an unchanged provider as it is, with no event', async () => {
      const provider = await domain.identityProviders.create(GITHUB, BY);
      const count = (await events()).length;
      expect(await domain.identityProviders.update(provider.id, { enabled: true, clientId: 'Iv1.abc' }, BY)).toEqual(
        provider,
      );
      expect(await events()).toHaveLength(count);
    });

    it('refuses a bad attribute and an unknown provider', async () => {
      const provider = await domain.identityProviders.create(OIDC, BY);
      await rejectionOf(domain.identityProviders.update(provider.id, { issuer: 'not a url' }, BY), ValidationError);
      await rejectionOf(domain.identityProviders.update(domain.ids.next(), { enabled: false }, BY), NotFoundError);
    });
  });

  it('deletes a provider with its event, then knows it no more', async () => {
    const provider = await domain.identityProviders.create(GITHUB, BY);
    await domain.identityProviders.delete(provider.id, BY);
    await rejectionOf(domain.identityProviders.find(provider.id), NotFoundError);
    await rejectionOf(domain.identityProviders.delete(provider.id, BY), NotFoundError);
    expect((await events())[0]).toMatchObject({
      action: 'identity_provider.deleted',
      target: { type: 'identity_providers', id: provider.id },
      changes: { slug: { before: 'github', after: null }, client_secret: { before: 'set', after: null } },
    });
  });

  it('lists providers oldest first', async () => {
    const first = await domain.identityProviders.create(GITHUB, BY);
    domain.clock.advance(1);
    const second = await domain.identityProviders.create(OIDC, BY);
    expect((await domain.identityProviders.list()).map((provider) => provider.id)).toEqual([first.id, second.id]);
  });
});
