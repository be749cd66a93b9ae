import type * as v from 'valibot';
import { beforeEach, describe, expect, it } from 'vitest';
import type { errorDocumentSchema } from '../errors/json-api-errors';
import type { userListDocumentSchema } from '../presenters/user-list.presenter';
import { bearer, createTestApp, expectNoSecrets, jsonInit, usersDocument, type TestApp } from '../testing';

const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const PASSWORD = 'a-fine-password';

let t: TestApp;
let auth: Record<string, string>;

beforeEach(async () => {
  t = await createTestApp();
  auth = bearer((await t.loginAdmin()).accessToken);
});

const create = (attributes: Record<string, unknown>, extra: Record<string, unknown> = {}) =>
  t.app.request('/v1/admin/users', jsonInit('POST', usersDocument(attributes, extra), auth));

const patch = (id: string, attributes: Record<string, unknown>, extra: Record<string, unknown> = {}) =>
  t.app.request(`/v1/admin/users/${id}`, jsonInit('PATCH', usersDocument(attributes, extra), auth));

async function errorsOf(response: Response) {
  return ((await response.json()) as v.InferOutput<typeof errorDocumentSchema>).errors;
}

describe('POST /v1/admin/users', () => {
  it('creates a user: 201, Location, the resource with defaults, never the password or its hash', async () => {
    const response = await create({ email: ' Ann@Example.com ', password: PASSWORD });
    expect(response.status).toBe(201);
    await expectNoSecrets(response, [PASSWORD, 'plain:', 'password']);
    const { data } = await response.json();
    expect(response.headers.get('location')).toBe(`/v1/admin/users/${data.id}`);
    expect(data).toEqual({
      type: 'users',
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      attributes: {
        name: '',
        email: 'ann@example.com',
        metadata: {},
        app: {},
        active: 1,
        email_verified: data.attributes.created,
        created: expect.stringMatching(ISO),
        updated: expect.stringMatching(ISO),
        last_login: null,
        recent_failed_logins: 0,
        banned: false,
        banned_until: null,
        ban_reason: null,
      },
    });
  });

  it('takes email_verified as false (null), a time, or true (now), and refuses anything else', async () => {
    const verifiedOf = async (email_verified: unknown) => {
      const response = await create({
        email: `v${String(email_verified).length}@example.com`,
        password: PASSWORD,
        email_verified,
      });
      return response.status === 201 ? (await response.json()).data.attributes.email_verified : response.status;
    };
    expect(await verifiedOf(false)).toBeNull();
    expect(await verifiedOf('2026-01-02T03:04:05.678Z')).toBe('2026-01-02T03:04:05.678Z');
    expect(await verifiedOf(true)).toBe(t.clock.now().toISOString());
    const refused = await create({ email: 'x@example.com', password: PASSWORD, email_verified: 'soon' });
    expect(refused.status).toBe(422);
    expect(await errorsOf(refused)).toMatchObject([
      {
        detail: 'email_verified must be true, false or an ISO 8601 UTC timestamp',
        source: { pointer: '/data/attributes/email_verified' },
      },
    ]);
    for (const value of [null, 1, {}]) expect(await verifiedOf(value)).toBe(422);
  });

  it('reports every problem at once, one error object each, pointing at the attribute, without echoing input', async () => {
    const response = await create({
      email: 'not-an-email',
      password: 12345678,
      name: null,
      active: 2,
      metadata: [],
      role: 'x',
      extra: 1,
    });
    expect(response.status).toBe(422);
    const errors = await errorsOf(response);
    expect(errors.map((error) => error.source)).toEqual(
      expect.arrayContaining([
        { pointer: '/data/attributes/email' },
        { pointer: '/data/attributes/password' },
        { pointer: '/data/attributes/name' },
        { pointer: '/data/attributes/active' },
        { pointer: '/data/attributes/metadata' },
        { pointer: '/data/attributes/role' },
        { pointer: '/data/attributes/extra' },
      ]),
    );
    expect(errors).toHaveLength(7);
    expect(errors.every((error) => error.status === '422' && error.code === 'invalid_attribute')).toBe(true);
    const details = errors.map((error) => error.detail).join('\n');
    expect(details).toContain('name must not be null');
    expect(details).toContain('password must be a string');
    expect(details).toContain('role is not an allowed attribute');
    expect(details).not.toContain('12345678');
    expect(details).not.toContain('not-an-email');
  });

  it.each([
    ['email', { password: PASSWORD }],
    ['password', { email: 'a@example.com' }],
  ])('requires %s', async (attribute, attributes) => {
    const errors = await errorsOf(await create(attributes));
    expect(errors).toEqual([
      expect.objectContaining({
        detail: `${attribute} is required`,
        source: { pointer: `/data/attributes/${attribute}` },
      }),
    ]);
  });

  it('refuses a password over 72 bytes rather than truncating it', async () => {
    const errors = await errorsOf(await create({ email: 'a@example.com', password: 'é'.repeat(37) }));
    expect(errors).toEqual([expect.objectContaining({ source: { pointer: '/data/attributes/password' } })]);
  });

  it('answers 409 for a taken email, whatever its case', async () => {
    await create({ email: 'ann@example.com', password: PASSWORD });
    const response = await create({ email: 'ANN@example.com', password: PASSWORD });
    expect(response.status).toBe(409);
    expect((await errorsOf(response))[0]?.code).toBe('email_taken');
  });

  it.each([
    [
      409,
      'data.type other than users',
      { data: { type: 'people', attributes: { email: 'a@example.com', password: PASSWORD } } },
      '/data/type',
    ],
    [
      422,
      'a client-chosen id',
      usersDocument({ email: 'a@example.com', password: PASSWORD }, { id: 'mine' }),
      '/data/id',
    ],
    [422, 'no data', { type: 'users' }, '/data'],
    [422, 'attributes that are not an object', { data: { type: 'users', attributes: 'x' } }, '/data/attributes'],
    [422, 'a document that is not an object', ['users'], ''],
  ])('answers %i to %s', async (status, _, body, pointer) => {
    const response = await t.app.request('/v1/admin/users', jsonInit('POST', body, auth));
    expect(response.status).toBe(status);
    expect((await errorsOf(response))[0]?.source).toEqual({ pointer });
  });
});

describe('GET /v1/admin/users/:id', () => {
  it('returns the user', async () => {
    const user = await t.createUser({ metadata: { plan: 'pro' } });
    const response = await t.app.request(`/v1/admin/users/${user.id}`, { headers: auth });
    expect(response.status).toBe(200);
    await expectNoSecrets(response, [user.passwordHash]);
    expect((await response.json()).data).toMatchObject({
      id: user.id,
      attributes: { email: user.email, metadata: { plan: 'pro' } },
    });
  });

  it.each(['00000000-0000-4000-8000-00000000ffff', 'not-a-uuid', '00000000-0000-4000-8000-00000000FFFF'])(
    'answers 404 for %s',
    async (id) => {
      const response = await t.app.request(`/v1/admin/users/${id}`, { headers: auth });
      expect(response.status).toBe(404);
      expect((await errorsOf(response))[0]?.code).toBe('not_found');
    },
  );
});

describe('PATCH /v1/admin/users/:id', () => {
  it('changes only what is sent; metadata and app are replaced whole', async () => {
    const user = await t.createUser({ name: 'Ann', metadata: { a: 1, b: 2 } });
    t.clock.advance(60);
    const response = await patch(user.id, { metadata: { c: 3 }, app: { role: 'editor' } }, { id: user.id });
    expect(response.status).toBe(200);
    const { data } = await response.json();
    expect(data.attributes).toMatchObject({
      name: 'Ann',
      email: user.email,
      metadata: { c: 3 },
      app: { role: 'editor' },
      active: 1,
    });
    expect(data.attributes.updated).not.toBe(data.attributes.created);
  });

  it('changes an email at once, keeping its verification; email_verified sets or clears it', async () => {
    const user = await t.createUser({ emailVerified: false });
    const attributesAfter = async (attributes: Record<string, unknown>) =>
      (await (await patch(user.id, attributes, { id: user.id })).json()).data.attributes;
    expect(await attributesAfter({ email: 'moved@example.com' })).toMatchObject({
      email: 'moved@example.com',
      email_verified: null,
    });
    expect((await attributesAfter({ email_verified: '2026-01-02T03:04:05.678Z' })).email_verified).toBe(
      '2026-01-02T03:04:05.678Z',
    );
    expect((await attributesAfter({ email: 'again@example.com' })).email_verified).toBe('2026-01-02T03:04:05.678Z');
    expect((await attributesAfter({ email_verified: false })).email_verified).toBeNull();
  });

  it.each<[number, string, Record<string, unknown>, string]>([
    [422, 'null for an attribute', { name: null }, '/data/attributes/name'],
    [422, 'a wrong type', { active: '1' }, '/data/attributes/active'],
    [422, 'an unknown attribute', { password_hash: 'x' }, '/data/attributes/password_hash'],
    ...['__proto__', 'constructor', 'prototype'].map((key): [number, string, Record<string, unknown>, string] => [
      422,
      `an attribute named ${key}`,
      JSON.parse(`{"${key}": {"admin": true}}`),
      `/data/attributes/${key}`,
    ]),
  ])('answers %i to %s', async (status, _, attributes, pointer) => {
    const user = await t.createUser();
    const response = await patch(user.id, attributes);
    expect(response.status).toBe(status);
    expect(await errorsOf(response)).toEqual([expect.objectContaining({ source: { pointer } })]);
  });

  it('answers 409 when data.id is not the path id, or data.type is not users', async () => {
    const user = await t.createUser();
    expect((await patch(user.id, { name: 'x' }, { id: '00000000-0000-4000-8000-00000000ffff' })).status).toBe(409);
    const wrongType = await t.app.request(
      `/v1/admin/users/${user.id}`,
      jsonInit('PATCH', { data: { type: 'admins', attributes: {} } }, auth),
    );
    expect(wrongType.status).toBe(409);
  });

  it('answers 404 for an unknown or malformed id, before looking at the body', async () => {
    expect((await patch('00000000-0000-4000-8000-00000000ffff', { name: 'x' })).status).toBe(404);
    expect((await patch('nope', { name: null })).status).toBe(404);
  });
});

describe('DELETE /v1/admin/users/:id', () => {
  it('deletes: 204 with no body, then 404', async () => {
    const user = await t.createUser();
    const first = await t.app.request(`/v1/admin/users/${user.id}`, { method: 'DELETE', headers: auth });
    expect(first.status).toBe(204);
    expect(await first.text()).toBe('');
    expect((await t.app.request(`/v1/admin/users/${user.id}`, { method: 'DELETE', headers: auth })).status).toBe(404);
  });
});

describe('GET /v1/admin/users', () => {
  const list = (query = '') => t.app.request(`/v1/admin/users${query}`, { headers: auth });

  it('pages with links and the total', async () => {
    for (let i = 0; i < 5; i += 1) {
      await t.createUser({ email: `u${i}@example.com` });
      t.clock.advance(1);
    }
    const response = await list('?page[number]=2&page[size]=2');
    expect(response.status).toBe(200);
    const body = (await response.json()) as v.InferOutput<typeof userListDocumentSchema>;
    expect(body.data.map((user) => user.attributes.email)).toEqual(['u2@example.com', 'u3@example.com']);
    expect(body.links).toEqual({
      first: '/v1/admin/users?page[number]=1&page[size]=2',
      last: '/v1/admin/users?page[number]=3&page[size]=2',
      prev: '/v1/admin/users?page[number]=1&page[size]=2',
      next: '/v1/admin/users?page[number]=3&page[size]=2',
    });
    expect(body.meta).toEqual({ total: 5 });
  });

  it('reads percent-encoded parameter names the same (browsers encode the brackets)', async () => {
    const body = await (await list('?page%5Bsize%5D=3&search%5Bemail%5D=a+b')).json();
    expect(body.links.first).toBe('/v1/admin/users?page[number]=1&page[size]=3&search[email]=a%20b');
  });

  it('defaults to page 1 of 20', async () => {
    const body = await (await list()).json();
    expect(body).toEqual({
      data: [],
      links: {
        first: '/v1/admin/users?page[number]=1&page[size]=20',
        last: '/v1/admin/users?page[number]=1&page[size]=20',
        prev: null,
        next: null,
      },
      meta: { total: 0 },
    });
  });

  it('filters by email and keeps the URL-encoded term in the links', async () => {
    await t.createUser({ email: 'ann+1@example.com' });
    await t.createUser({ email: 'bob@example.com' });
    const body = await (await list(`?search[email]=${encodeURIComponent('ANN+1')}`)).json();
    expect(body.meta.total).toBe(1);
    expect(body.links.first).toBe('/v1/admin/users?page[number]=1&page[size]=20&search[email]=ANN%2B1');
  });

  it('answers a page past the end with 200 and no data', async () => {
    await t.createUser();
    const body = await (await list('?page[number]=9')).json();
    expect(body.data).toEqual([]);
    expect(body.links.next).toBeNull();
  });

  it.each([
    ['page[size]', '?page[size]=101'],
    ['page[size]', '?page[size]=0'],
    ['page[number]', '?page[number]=-1'],
    ['page[number]', '?page[number]=1.5'],
    ['page[number]', '?page[number]=abc'],
    ['page[number]', '?page[number]='],
    ['page[size]', '?page[size]=1&page[size]=2'],
    ['search[email]', '?search[email]=%FF'],
    ['search[email]', '?search[email]=%ED%A0%80'],
    ['search[email]', '?search%5Bemail%5D=%C3'],
  ])('answers 400 naming %s for %s', async (parameter, query) => {
    const response = await list(query);
    expect(response.status).toBe(400);
    expect(await errorsOf(response)).toEqual([
      expect.objectContaining({ status: '400', code: 'invalid_parameter', source: { parameter } }),
    ]);
  });

  it.each([
    ['%25 and + as a percent sign and a space', '?search[email]=a%25b+c', 'a%25b%20c'],
    ['a stray % as the percent sign itself', '?search[email]=a%b', 'a%25b'],
    ['a lone % likewise', '?search[email]=%', '%25'],
  ])('decodes the search term, taking %s', async (_, query, encoded) => {
    const body = await (await list(query)).json();
    expect(body.links.first).toBe(`/v1/admin/users?page[number]=1&page[size]=20&search[email]=${encoded}`);
  });

  it('reports each bad parameter', async () => {
    const errors = await errorsOf(await list('?page[size]=1000&page[number]=0'));
    expect(errors.map((error) => error.source)).toEqual([{ parameter: 'page[number]' }, { parameter: 'page[size]' }]);
  });
});

describe('admin routes', () => {
  it.each([
    ['GET', '/v1/admin/users'],
    ['POST', '/v1/admin/users'],
    ['GET', '/v1/admin/users/00000000-0000-4000-8000-000000000001'],
    ['PATCH', '/v1/admin/users/00000000-0000-4000-8000-000000000001'],
    ['DELETE', '/v1/admin/users/00000000-0000-4000-8000-000000000001'],
  ])(
    '%s %s needs an admin token: 401 without (bare challenge), 401 for garbage, 403 for a user token',
    async (method, path) => {
      await t.createUser({ email: 'u@example.com' });
      const user = await t.loginUser('u@example.com', 'user-password-1');
      const none = await t.app.request(path, { method });
      expect(none.status).toBe(401);
      expect(none.headers.get('www-authenticate')).toBe('Bearer');
      const garbage = await t.app.request(path, { method, headers: bearer('garbage') });
      expect(garbage.status).toBe(401);
      expect(garbage.headers.get('www-authenticate')).toBe('Bearer error="invalid_token"');
      expect((await t.app.request(path, { method, headers: { Authorization: 'Basic YTpi' } })).status).toBe(401);
      const forbidden = await t.app.request(path, { method, headers: bearer(user.accessToken) });
      expect(forbidden.status).toBe(403);
      expect((await errorsOf(forbidden))[0]?.code).toBe('forbidden');
    },
  );
});
