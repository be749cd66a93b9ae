import type * as v from 'valibot';
import { beforeEach, describe, expect, it } from 'vitest';
import type {
  identityProviderDocumentSchema,
  identityProviderListDocumentSchema,
} from '../presenters/identity-provider.presenter';
import { bearer, createTestApp, expectNoSecrets, jsonInit, TEST_PUBLIC_URL, type TestApp } from '../testing';

type ProviderDocument = v.InferOutput<typeof identityProviderDocumentSchema>;
type ProviderList = v.InferOutput<typeof identityProviderListDocumentSchema>;

const PATH = '/v1/admin/identity-providers';
const SECRET = 'gh-client-secret-4b1d7e2a9f';
const UNKNOWN = '00000000-0000-4000-8000-00000000dead';
const GITHUB = { slug: 'github', kind: 'github', client_id: 'Iv1.abc', client_secret: SECRET };

let t: TestApp;
let owner: Record<string, string>;

beforeEach(async () => {
  t = await createTestApp();
  owner = bearer((await t.loginAdmin()).accessToken);
});

const document = (attributes: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({
  data: { type: 'identity_providers', ...extra, attributes },
});
const create = (attributes: Record<string, unknown>, headers = owner, extra?: Record<string, unknown>) =>
  t.app.request(PATH, jsonInit('POST', document(attributes, extra), headers));
const patch = (id: string, attributes: Record<string, unknown>, extra?: Record<string, unknown>) =>
  t.app.request(`${PATH}/${id}`, jsonInit('PATCH', document(attributes, extra), owner));
const get = (path: string, headers = owner) => t.app.request(path, { headers });

async function created(attributes: Record<string, unknown> = GITHUB) {
  const response = await create(attributes);
  expect(response.status).toBe(201);
  return ((await response.json()) as ProviderDocument).data;
}

/** The secret never leaves: no answer about providers, no audit event, no log line holds it. */
async function expectSecretKept(secret: string, id: string) {
  for (const path of [PATH, `${PATH}/${id}`, '/v1/admin/audit-events']) {
    await expectNoSecrets(await get(path), [secret]);
  }
  expect(t.logger.text()).not.toContain(secret);
}

describe('POST /v1/admin/identity-providers', () => {
  it('answers 201 with the provider, its callback URL and whether a secret is set, never the secret', async () => {
    const response = await create({ ...GITHUB, scopes: ['read:org'] });
    expect(response.status).toBe(201);
    await expectNoSecrets(response, [SECRET]);
    const { data } = (await response.json()) as ProviderDocument;
    expect(response.headers.get('location')).toBe(`${PATH}/${data.id}`);
    expect(data).toEqual({
      type: 'identity_providers',
      id: data.id,
      attributes: {
        slug: 'github',
        kind: 'github',
        issuer: null,
        client_id: 'Iv1.abc',
        client_secret_set: true,
        scopes: ['read:org'],
        enabled: true,
        auto_link: false,
        callback_url: `${TEST_PUBLIC_URL}v1/oauth/github/callback`,
        created: data.attributes.created,
        updated: data.attributes.created,
      },
    });
    await expectSecretKept(SECRET, data.id);
  });

  it('takes a generic OIDC provider with its issuer and no secret (a public client)', async () => {
    const data = await created({ slug: 'acme', kind: 'oidc', issuer: 'https://sso.acme.test', client_id: 'uas' });
    expect(data.attributes).toMatchObject({ kind: 'oidc', issuer: 'https://sso.acme.test', client_secret_set: false });
  });

  it.each([
    ['a bad slug', { ...GITHUB, slug: 'Git Hub' }, '/data/attributes/slug'],
    ['a slug too long', { ...GITHUB, slug: 'a'.repeat(41) }, '/data/attributes/slug'],
    ['an unknown kind', { ...GITHUB, kind: 'facebook' }, '/data/attributes/kind'],
    ['no slug', { kind: 'github', client_id: 'x', client_secret: SECRET }, '/data/attributes/slug'],
    ['no client_id', { slug: 'github', kind: 'github', client_secret: SECRET }, '/data/attributes/client_id'],
    ['an empty client_id', { ...GITHUB, client_id: '' }, '/data/attributes/client_id'],
    ['a preset without secret', { slug: 'g', kind: 'google', client_id: 'x' }, '/data/attributes/client_secret'],
    ['an empty secret', { ...GITHUB, client_secret: '' }, '/data/attributes/client_secret'],
    ['a secret with a newline', { ...GITHUB, client_secret: `${SECRET}\n` }, '/data/attributes/client_secret'],
    ['a secret too long', { ...GITHUB, client_secret: SECRET.repeat(200) }, '/data/attributes/client_secret'],
    ['a secret of the wrong type', { ...GITHUB, client_secret: 42 }, '/data/attributes/client_secret'],
    ['oidc without issuer', { slug: 'a', kind: 'oidc', client_id: 'x' }, '/data/attributes/issuer'],
    ['an http issuer', { ...GITHUB, issuer: 'http://github.example' }, '/data/attributes/issuer'],
    ['an issuer with a query', { ...GITHUB, issuer: 'https://sso.test/?a=1' }, '/data/attributes/issuer'],
    ['an issuer with credentials', { ...GITHUB, issuer: 'https://u:p@sso.test' }, '/data/attributes/issuer'],
    ['an issuer not a URL', { ...GITHUB, issuer: 'sso.test' }, '/data/attributes/issuer'],
    ['a scope with a space', { ...GITHUB, scopes: ['read org'] }, '/data/attributes/scopes'],
    [
      'too many scopes',
      { ...GITHUB, scopes: Array.from({ length: 21 }, (_, i) => `s${i}`) },
      '/data/attributes/scopes',
    ],
    ['scopes not an array', { ...GITHUB, scopes: 'openid' }, '/data/attributes/scopes'],
    ['enabled not a boolean', { ...GITHUB, enabled: 'yes' }, '/data/attributes/enabled'],
    ['auto_link not a boolean', { ...GITHUB, auto_link: 1 }, '/data/attributes/auto_link'],
    ['an unknown attribute', { ...GITHUB, callback_url: 'https://evil.test/' }, '/data/attributes/callback_url'],
  ])(
    'refuses %s with 422 and its pointer, storing nothing, never echoing the secret',
    async (_case, attributes, pointer) => {
      const response = await create(attributes);
      expect(response.status).toBe(422);
      await expectNoSecrets(response, [SECRET]);
      const { errors } = await response.json();
      expect(errors.map((error: { source: unknown }) => error.source)).toEqual([{ pointer }]);
      expect(((await (await get(PATH)).json()) as ProviderList).meta.total).toBe(0);
      expect(t.logger.text()).not.toContain(SECRET);
    },
  );

  it('refuses a slug another provider has with 409 slug_taken', async () => {
    await created();
    const response = await create({ ...GITHUB, kind: 'oidc', issuer: 'https://sso.acme.test' });
    expect(response.status).toBe(409);
    expect((await response.json()).errors[0]).toMatchObject({
      code: 'slug_taken',
      source: { pointer: '/data/attributes/slug' },
    });
  });

  it('refuses another resource type with 409', async () => {
    const response = await t.app.request(
      PATH,
      jsonInit('POST', { data: { type: 'webhooks', attributes: GITHUB } }, owner),
    );
    expect(response.status).toBe(409);
    expect((await response.json()).errors[0].code).toBe('resource_conflict');
  });
});

describe('GET /v1/admin/identity-providers', () => {
  it('lists the providers oldest first, and gets one; an unknown or malformed id is 404', async () => {
    const first = await created();
    const second = await created({ slug: 'acme', kind: 'oidc', issuer: 'https://sso.acme.test', client_id: 'uas' });
    const list = (await (await get(PATH)).json()) as ProviderList;
    expect(list.data.map(({ id }) => id)).toEqual([first.id, second.id]);
    expect(list.meta.total).toBe(2);
    expect(((await (await get(`${PATH}/${first.id}`)).json()) as ProviderDocument).data).toEqual(first);
    expect((await get(`${PATH}/${UNKNOWN}`)).status).toBe(404);
    expect((await get(`${PATH}/not-a-uuid`)).status).toBe(404);
  });
});

describe('PATCH /v1/admin/identity-providers/{id}', () => {
  it('changes what it names; a new secret replaces the old, and neither is ever answered or logged', async () => {
    const provider = await created();
    const NEW_SECRET = 'gh-client-secret-rotated-8c3e';
    const response = await patch(provider.id, { enabled: false, auto_link: true, client_secret: NEW_SECRET });
    expect(response.status).toBe(200);
    await expectNoSecrets(response, [SECRET, NEW_SECRET]);
    const { data } = (await response.json()) as ProviderDocument;
    expect(data.attributes).toMatchObject({ enabled: false, auto_link: true, client_secret_set: true, slug: 'github' });
    const stored = await t.repositories.identityProviders.get(provider.id);
    expect(JSON.stringify(stored)).not.toContain(NEW_SECRET);
    await expectSecretKept(SECRET, provider.id);
    await expectSecretKept(NEW_SECRET, provider.id);
  });

  it.each([
    ['the slug', { slug: 'other' }, '/data/attributes/slug'],
    ['the kind', { kind: 'oidc' }, '/data/attributes/kind'],
    ['no secret for a preset', { client_secret: null }, '/data/attributes/client_secret'],
    ['an http issuer', { issuer: 'http://github.example' }, '/data/attributes/issuer'],
    ['a bad scope', { scopes: ['a\\b'] }, '/data/attributes/scopes'],
    ['a null client_id', { client_id: null }, '/data/attributes/client_id'],
  ])('refuses changing %s with 422 and its pointer', async (_case, attributes, pointer) => {
    const provider = await created();
    const response = await patch(provider.id, attributes);
    expect(response.status).toBe(422);
    expect((await response.json()).errors[0].source).toEqual({ pointer });
    expect(((await (await get(`${PATH}/${provider.id}`)).json()) as ProviderDocument).data).toEqual(provider);
  });

  it('removes the secret of a generic OIDC provider with null', async () => {
    const provider = await created({
      slug: 'acme',
      kind: 'oidc',
      issuer: 'https://sso.acme.test',
      client_id: 'uas',
      client_secret: SECRET,
    });
    const response = await patch(provider.id, { client_secret: null });
    expect(((await response.json()) as ProviderDocument).data.attributes.client_secret_set).toBe(false);
  });

  it('refuses another id in the document with 409, and an unknown provider with 404', async () => {
    const provider = await created();
    expect((await patch(provider.id, { enabled: false }, { id: UNKNOWN })).status).toBe(409);
    expect((await patch(UNKNOWN, { enabled: false })).status).toBe(404);
  });
});

describe('DELETE /v1/admin/identity-providers/{id}', () => {
  it('answers 204, then 404', async () => {
    const provider = await created();
    const remove = () => t.app.request(`${PATH}/${provider.id}`, { method: 'DELETE', headers: owner });
    expect((await remove()).status).toBe(204);
    expect((await get(`${PATH}/${provider.id}`)).status).toBe(404);
    expect((await remove()).status).toBe(404);
  });
});

describe('who may manage identity providers', () => {
  it.each(['admin', 'support', 'auditor'] as const)('refuses every operation to %s with 403', async (role) => {
    const provider = await created();
    const headers = await t.adminWith(role);
    const answers = [
      await get(PATH, headers),
      await get(`${PATH}/${provider.id}`, headers),
      await create({ ...GITHUB, slug: 'other' }, headers),
      await t.app.request(`${PATH}/${provider.id}`, jsonInit('PATCH', document({ enabled: false }), headers)),
      await t.app.request(`${PATH}/${provider.id}`, { method: 'DELETE', headers }),
    ];
    expect(answers.map((response) => response.status)).toEqual([403, 403, 403, 403, 403]);
    expect((await get(`${PATH}/${provider.id}`)).status).toBe(200);
  });

  it('refuses a request without a token with 401', async () => {
    expect((await t.app.request(PATH)).status).toBe(401);
  });
});
