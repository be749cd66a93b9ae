import { OAUTH_CLIENT_SECRET_PURPOSE } from '@uas/domain';
import type * as v from 'valibot';
import { beforeEach, describe, expect, it } from 'vitest';
import type {
  oauthClientDocumentSchema,
  oauthClientListDocumentSchema,
  revealedOAuthClientDocumentSchema,
} from '../presenters/oauth-client.presenter';
import { bearer, createTestApp, expectNoSecrets, jsonInit, storeGrant, type TestApp } from '../testing';

type Revealed = v.InferOutput<typeof revealedOAuthClientDocumentSchema>;
type ClientDocument = v.InferOutput<typeof oauthClientDocumentSchema>;
type ClientList = v.InferOutput<typeof oauthClientListDocumentSchema>;

const PATH = '/v1/admin/oauth-clients';
const UNKNOWN = '00000000-0000-4000-8000-00000000dead';
const SECRET = /^[A-Za-z0-9_-]{43}$/;
const CRM = { name: 'Acme CRM', type: 'confidential', redirect_uris: ['https://crm.example.com/callback'] };

let t: TestApp;
let owner: Record<string, string>;

beforeEach(async () => {
  t = await createTestApp();
  owner = bearer((await t.loginAdmin()).accessToken);
});

const document = (attributes: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({
  data: { type: 'oauth_clients', ...extra, attributes },
});
const create = (attributes: Record<string, unknown>, headers = owner) =>
  t.app.request(PATH, jsonInit('POST', document(attributes), headers));
const patch = (id: string, attributes: Record<string, unknown>, extra: Record<string, unknown> = { id }) =>
  t.app.request(`${PATH}/${id}`, jsonInit('PATCH', document(attributes, extra), owner));
const get = (path: string, headers = owner) => t.app.request(path, { headers });
const rotate = (id: string, headers = owner) =>
  t.app.request(`${PATH}/${id}/rotate-secret`, { method: 'POST', headers });

async function created(attributes: Record<string, unknown> = CRM) {
  const response = await create(attributes);
  expect(response.status).toBe(201);
  return ((await response.json()) as Revealed).data;
}

/** What must never appear once a secret was answered: the secret, and its sealed form. */
async function hidden(id: string, secret: string): Promise<string[]> {
  const stored = await t.repositories.oauthClients.get(id);
  return [secret, stored!.secret!.ciphertext];
}

/** Every other answer that shows the client, and the log, hold neither. */
async function expectSecretKept(id: string, secret: string) {
  const never = await hidden(id, secret);
  for (const path of [PATH, `${PATH}/${id}`, '/v1/admin/audit-events']) await expectNoSecrets(await get(path), never);
  await expectNoSecrets(await patch(id, { name: 'Renamed' }), never);
  for (const value of never) expect(t.logger.text()).not.toContain(value);
}

describe('POST /v1/admin/oauth-clients', () => {
  it('answers 201 with a confidential client and its secret, once; Location names it', async () => {
    const response = await create({ ...CRM, post_logout_redirect_uris: ['https://crm.example.com/'] });
    expect(response.status).toBe(201);
    const { data } = (await response.clone().json()) as Revealed;
    expect(response.headers.get('location')).toBe(`${PATH}/${data.id}`);
    expect(data).toEqual({
      type: 'oauth_clients',
      id: data.id,
      attributes: {
        name: 'Acme CRM',
        client_id: data.id,
        type: 'confidential',
        application_type: 'web',
        redirect_uris: ['https://crm.example.com/callback'],
        post_logout_redirect_uris: ['https://crm.example.com/'],
        scopes: ['openid', 'email', 'profile'],
        first_party: false,
        id_token_signed_response_alg: null,
        created: data.attributes.created,
        updated: data.attributes.created,
        client_secret: expect.stringMatching(SECRET),
      },
    });
    const secret = data.attributes.client_secret!;
    const stored = await t.repositories.oauthClients.get(data.id);
    expect(await t.box.open(OAUTH_CLIENT_SECRET_PURPOSE, stored!.secret!, data.id)).toBe(secret);
    await expectNoSecrets(response, [stored!.secret!.ciphertext]);
    const { data: shown } = (await (await get(`${PATH}/${data.id}`)).json()) as ClientDocument;
    const { client_secret: _secret, ...attributes } = data.attributes;
    expect(shown).toEqual({ ...data, attributes });
    await expectSecretKept(data.id, secret);
  });

  it('answers a public native client with a null secret, openid always among its scopes', async () => {
    const data = await created({
      name: 'Acme CLI',
      type: 'public',
      application_type: 'native',
      redirect_uris: ['http://127.0.0.1/callback', 'com.example.cli:/callback'],
      scopes: ['offline_access'],
      first_party: true,
      id_token_signed_response_alg: 'RS256',
    });
    expect(data.attributes).toMatchObject({
      type: 'public',
      application_type: 'native',
      scopes: ['openid', 'offline_access'],
      first_party: true,
      id_token_signed_response_alg: 'RS256',
      client_secret: null,
    });
  });

  it.each([
    ['an unknown ID token algorithm', { id_token_signed_response_alg: 'none' }, 'id_token_signed_response_alg'],
    ['a web loopback in IPv6 dress', { redirect_uris: ['https://[::ffff:127.0.0.1]/cb'] }, 'redirect_uris'],
    ['a bidi override in the name', { name: '\u202eevil' }, 'name'],
    ['a wildcard host', { redirect_uris: ['https://*.example.com/cb'] }, 'redirect_uris'],
    ['a wildcard path', { redirect_uris: ['https://crm.example.com/*'] }, 'redirect_uris'],
    ['a fragment', { redirect_uris: ['https://crm.example.com/cb#x'] }, 'redirect_uris'],
    ['javascript:', { redirect_uris: ['javascript:alert(1)'] }, 'redirect_uris'],
    ['JavaScript: in mixed case', { redirect_uris: ['JaVaScRiPt:alert(1)'] }, 'redirect_uris'],
    ['javascript: behind a space', { redirect_uris: [' javascript:alert(1)'] }, 'redirect_uris'],
    ['javascript: with a tab inside', { redirect_uris: ['java\tscript:alert(1)'] }, 'redirect_uris'],
    ['data:', { redirect_uris: ['data:text/html,<script>alert(1)</script>'] }, 'redirect_uris'],
    ['DATA: in capitals', { redirect_uris: ['DATA:text/html,x'] }, 'redirect_uris'],
    ['vbscript:', { redirect_uris: ['vbscript:msgbox(1)'] }, 'redirect_uris'],
    ['file:', { redirect_uris: ['file:///etc/passwd'] }, 'redirect_uris'],
    ['credentials', { redirect_uris: ['https://user:pw@crm.example.com/cb'] }, 'redirect_uris'],
    ['a backslash', { redirect_uris: ['https://crm.example.com\\@evil.example/cb'] }, 'redirect_uris'],
    ['http off loopback', { redirect_uris: ['http://crm.example.com/cb'] }, 'redirect_uris'],
    ['loopback for a web client', { redirect_uris: ['http://localhost:8080/cb'] }, 'redirect_uris'],
    ['https loopback for a web client', { redirect_uris: ['https://127.0.0.1/cb'] }, 'redirect_uris'],
    ['a relative URI', { redirect_uris: ['/callback'] }, 'redirect_uris'],
    ['no redirect URI', { redirect_uris: [] }, 'redirect_uris'],
    [
      '21 redirect URIs',
      { redirect_uris: Array.from({ length: 21 }, (_, i) => `https://a.example/${i}`) },
      'redirect_uris',
    ],
    ['a URI of 2001 characters', { redirect_uris: [`https://a.example/${'x'.repeat(1983)}`] }, 'redirect_uris'],
    ['redirect URIs that are no list', { redirect_uris: 'https://crm.example.com/cb' }, 'redirect_uris'],
    [
      'a post-logout URI with a fragment',
      { post_logout_redirect_uris: ['https://crm.example.com/#bye'] },
      'post_logout_redirect_uris',
    ],
    [
      'a post-logout javascript: URI',
      { post_logout_redirect_uris: ['javascript:alert(1)'] },
      'post_logout_redirect_uris',
    ],
    ['an unknown scope', { scopes: ['openid', 'admin'] }, 'scopes'],
    ['an unknown type', { type: 'trusted' }, 'type'],
    ['an unknown application type', { application_type: 'desktop' }, 'application_type'],
    ['an empty name', { name: '' }, 'name'],
    ['a name too long', { name: 'x'.repeat(101) }, 'name'],
    ['first_party that is no boolean', { first_party: 'yes' }, 'first_party'],
    ['a secret of its own', { client_secret: 'mine' }, 'client_secret'],
    ['a client id of its own', { client_id: 'mine' }, 'client_id'],
  ])('refuses %s with 422 and its pointer, storing nothing', async (_case, attributes, attribute) => {
    const response = await create({ ...CRM, ...attributes });
    expect(response.status).toBe(422);
    const { errors } = await response.clone().json();
    expect(errors).toEqual([
      expect.objectContaining({ code: 'invalid_attribute', source: { pointer: `/data/attributes/${attribute}` } }),
    ]);
    await expectNoSecrets(response, ['<script>', 'alert(1)']);
    expect(((await (await get(PATH)).json()) as ClientList).meta.total).toBe(0);
  });

  it('takes loopback http on any port and private-use schemes for a native client', async () => {
    const data = await created({
      ...CRM,
      application_type: 'native',
      redirect_uris: ['http://localhost:51004/cb', 'http://[::1]/cb', 'com.example.crm:/cb'],
    });
    expect(data.attributes.redirect_uris).toEqual([
      'http://localhost:51004/cb',
      'http://[::1]/cb',
      'com.example.crm:/cb',
    ]);
  });

  it('refuses another resource type with 409', async () => {
    const response = await t.app.request(
      PATH,
      jsonInit('POST', { data: { type: 'webhooks', attributes: CRM } }, owner),
    );
    expect(response.status).toBe(409);
  });
});

describe('PATCH /v1/admin/oauth-clients/{id}', () => {
  it('changes redirect URIs, scopes and first party, keeping the secret', async () => {
    const client = await created();
    const before = await t.repositories.oauthClients.get(client.id);
    t.clock.advance(1);
    const response = await patch(client.id, {
      redirect_uris: ['https://crm.example.com/v2/callback'],
      scopes: ['metadata', 'app'],
      first_party: true,
    });
    expect(response.status).toBe(200);
    const { data } = (await response.clone().json()) as ClientDocument;
    expect(data.attributes).toMatchObject({
      name: 'Acme CRM',
      redirect_uris: ['https://crm.example.com/v2/callback'],
      scopes: ['openid', 'metadata', 'app'],
      first_party: true,
    });
    expect(data.attributes.updated).not.toBe(client.attributes.updated);
    expect((await t.repositories.oauthClients.get(client.id))!.secret).toEqual(before!.secret);
    await expectNoSecrets(response, await hidden(client.id, client.attributes.client_secret!));
  });

  it.each([
    ['the type', { type: 'public' }, 'type'],
    ['the application type', { application_type: 'native' }, 'application_type'],
    ['a loopback URI on a web client', { redirect_uris: ['http://127.0.0.1/cb'] }, 'redirect_uris'],
    ['a data: URI', { redirect_uris: ['Data:,x'] }, 'redirect_uris'],
    ['an unknown scope', { scopes: ['root'] }, 'scopes'],
  ])('refuses %s with 422 and its pointer, changing nothing', async (_case, attributes, attribute) => {
    const client = await created();
    const response = await patch(client.id, attributes);
    expect(response.status).toBe(422);
    expect((await response.json()).errors[0].source).toEqual({ pointer: `/data/attributes/${attribute}` });
    const { data } = (await (await get(`${PATH}/${client.id}`)).json()) as ClientDocument;
    expect(data.attributes.updated).toBe(client.attributes.updated);
  });

  it('refuses a body naming another client with 409', async () => {
    const client = await created();
    expect((await patch(client.id, { name: 'x' }, { id: UNKNOWN })).status).toBe(409);
  });

  it('answers 404 for an unknown or malformed id', async () => {
    expect((await patch(UNKNOWN, { name: 'x' })).status).toBe(404);
    expect((await patch('not-a-uuid', { name: 'x' })).status).toBe(404);
  });
});

describe('POST /v1/admin/oauth-clients/{id}/rotate-secret', () => {
  it('answers a new secret, once; the old one no longer opens from the store', async () => {
    const client = await created();
    const old = client.attributes.client_secret!;
    const response = await rotate(client.id);
    expect(response.status).toBe(200);
    const { data } = (await response.clone().json()) as Revealed;
    const secret = data.attributes.client_secret!;
    expect(secret).toMatch(SECRET);
    expect(secret).not.toBe(old);
    const stored = await t.repositories.oauthClients.get(client.id);
    expect(await t.box.open(OAUTH_CLIENT_SECRET_PURPOSE, stored!.secret!, client.id)).toBe(secret);
    await expectNoSecrets(response, [old, stored!.secret!.ciphertext]);
    await expectSecretKept(client.id, secret);
    const audit = await (await get('/v1/admin/audit-events')).text();
    expect(audit).toContain('oauth_client.secret_rotated');
    expect(audit).not.toContain(old);
  });

  it('refuses a public client with 422', async () => {
    const client = await created({ ...CRM, type: 'public' });
    const response = await rotate(client.id);
    expect(response.status).toBe(422);
    expect((await response.json()).errors[0].source).toEqual({ pointer: '/data/attributes/type' });
  });

  it('answers 404 for an unknown client', async () => {
    expect((await rotate(UNKNOWN)).status).toBe(404);
  });
});

describe('DELETE /v1/admin/oauth-clients/{id}', () => {
  it('removes the client with its grants and their tokens', async () => {
    const client = await created();
    const user = await t.createUser();
    const grant = await storeGrant(t, { accountId: user.id, clientId: client.id, scope: 'openid' });
    const remove = () => t.app.request(`${PATH}/${client.id}`, { method: 'DELETE', headers: owner });
    expect((await remove()).status).toBe(204);
    expect((await get(`${PATH}/${client.id}`)).status).toBe(404);
    const now = t.clock.now();
    expect(await t.repositories.openIdRecords.find('Grant', grant, now)).toBeNull();
    expect(await t.repositories.openIdRecords.find('AccessToken', `token-of-${grant}`, now)).toBeNull();
    expect((await remove()).status).toBe(404);
  });
});

describe('GET /v1/admin/oauth-clients', () => {
  it('lists every client oldest first, never a secret', async () => {
    const first = await created();
    t.clock.advance(1);
    const second = await created({ ...CRM, name: 'Second' });
    const response = await get(PATH);
    expect(response.status).toBe(200);
    const never = [
      ...(await hidden(first.id, first.attributes.client_secret!)),
      ...(await hidden(second.id, second.attributes.client_secret!)),
      'client_secret',
    ];
    await expectNoSecrets(response, never);
    const list = (await response.json()) as ClientList;
    expect(list.meta.total).toBe(2);
    expect(list.data.map((client) => client.id)).toEqual([first.id, second.id]);
  });
});

describe('who may manage OAuth clients', () => {
  it.each(['admin', 'support', 'auditor'] as const)('refuses every operation to %s with 403', async (role) => {
    const client = await created();
    const headers = await t.adminWith(role);
    const answers = [
      await get(PATH, headers),
      await get(`${PATH}/${client.id}`, headers),
      await create({ ...CRM, name: 'Other' }, headers),
      await t.app.request(
        `${PATH}/${client.id}`,
        jsonInit('PATCH', document({ first_party: true }, { id: client.id }), headers),
      ),
      await rotate(client.id, headers),
      await t.app.request(`${PATH}/${client.id}`, { method: 'DELETE', headers }),
    ];
    expect(answers.map((response) => response.status)).toEqual([403, 403, 403, 403, 403, 403]);
    for (const response of answers) await expectNoSecrets(response, [client.attributes.client_secret!]);
    const list = (await (await get(PATH)).json()) as ClientList;
    expect(list.data).toEqual([
      expect.objectContaining({ id: client.id, attributes: expect.objectContaining({ first_party: false }) }),
    ]);
    const stored = await t.repositories.oauthClients.get(client.id);
    expect(await t.box.open(OAUTH_CLIENT_SECRET_PURPOSE, stored!.secret!, client.id)).toBe(
      client.attributes.client_secret,
    );
  });

  it('refuses a request without a token with 401, and a user token with 403', async () => {
    expect((await t.app.request(PATH)).status).toBe(401);
    const user = await t.createUser();
    const { accessToken } = await t.loginUser(user.email, 'user-password-1');
    expect((await create(CRM, bearer(accessToken))).status).toBe(403);
    expect((await get(PATH, bearer(accessToken))).status).toBe(403);
  });
});
