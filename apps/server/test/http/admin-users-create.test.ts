import { describe, expect, it } from 'vitest';
import { BACKENDS } from '../support/test-application';
import { ISO_MS, UNKNOWN_ID, UUID } from '../support/wire';
import { attribute, errorsLike, expectInvalidAttributes } from '../support/error-expectations';
import { bearer, usersDocument } from '@uas/adapters-http/testing';
import { scenarioApplication } from '../support/scenario';

const USERS = '/v1/admin/users';

/** A JSON object whose serialisation takes exactly `bytes` bytes. */
const claimsOfBytes = (bytes: number) => ({ blob: 'x'.repeat(bytes - '{"blob":""}'.length) });

/** Attributes that each break one or more rules, with the pointer of every problem expected. */
const invalidCreates: [name: string, attributes: Record<string, unknown>, pointers: string[]][] = [
  ['a missing email', { password: 'password-123' }, ['email']],
  ['a missing password', { email: 'missing.password@example.com' }, ['password']],
  ['neither email nor password', { name: 'Nobody' }, ['email', 'password']],
  ['an email without a domain', { email: 'not-an-email', password: 'password-123' }, ['email']],
  ['an email with a space', { email: 'ann smith@example.com', password: 'password-123' }, ['email']],
  ['an email that is not a string', { email: 42, password: 'password-123' }, ['email']],
  ['a password of 7 bytes', { email: 'short.password@example.com', password: 'seven77' }, ['password']],
  ['a password of 73 ASCII bytes', { email: 'long.password@example.com', password: 'p'.repeat(73) }, ['password']],
  [
    'a password of 37 characters but 73 bytes of UTF-8',
    { email: 'utf8.password@example.com', password: `${'é'.repeat(36)}x` },
    ['password'],
  ],
  ['active 2', { email: 'active2@example.com', password: 'password-123', active: 2 }, ['active']],
  ['active "1" as a string', { email: 'active-string@example.com', password: 'password-123', active: '1' }, ['active']],
  ['active true', { email: 'active-true@example.com', password: 'password-123', active: true }, ['active']],
  [
    'metadata as an array',
    { email: 'meta-array@example.com', password: 'password-123', metadata: ['a'] },
    ['metadata'],
  ],
  ['metadata null', { email: 'meta-null@example.com', password: 'password-123', metadata: null }, ['metadata']],
  [
    'metadata as a string',
    { email: 'meta-string@example.com', password: 'password-123', metadata: '{"a":1}' },
    ['metadata'],
  ],
  [
    'metadata over 8 KiB',
    { email: 'meta-big@example.com', password: 'password-123', metadata: claimsOfBytes(8193) },
    ['metadata'],
  ],
  ['app as an array', { email: 'app-array@example.com', password: 'password-123', app: [] }, ['app']],
  ['app over 8 KiB', { email: 'app-big@example.com', password: 'password-123', app: claimsOfBytes(8193) }, ['app']],
  ['a name that is not a string', { email: 'name-number@example.com', password: 'password-123', name: 7 }, ['name']],
  ['an unknown attribute', { email: 'role@example.com', password: 'password-123', role: 'admin' }, ['role']],
  ['an email with a NUL character', { email: 'a\u0000b@example.com', password: 'password-123' }, ['email']],
  [
    'a name with a NUL character',
    { email: 'nul-name@example.com', password: 'password-123', name: 'Ann\u0000' },
    ['name'],
  ],
  [
    'a name with a lone surrogate',
    { email: 'surrogate-name@example.com', password: 'password-123', name: 'Ann\ud800' },
    ['name'],
  ],
  [
    'metadata with a NUL character in a value',
    { email: 'nul-meta@example.com', password: 'password-123', metadata: { note: 'a\u0000b' } },
    ['metadata'],
  ],
  [
    'app with a NUL character in a key',
    { email: 'nul-app@example.com', password: 'password-123', app: { 'k\u0000': 1 } },
    ['app'],
  ],
  [
    'metadata with a lone surrogate',
    { email: 'surrogate-meta@example.com', password: 'password-123', metadata: { list: ['\udfff'] } },
    ['metadata'],
  ],
  [
    'a bad email, a short password and active 2 at once',
    { email: 'nope', password: 'short', active: 2 },
    ['email', 'password', 'active'],
  ],
];

/** Values on the edge of a rule that must still be accepted. */
const acceptedCreates: [name: string, attributes: Record<string, unknown>][] = [
  ['a password of exactly 8 bytes', { email: 'eight@example.com', password: 'eight888' }],
  ['a password of 4 characters that make 8 bytes of UTF-8', { email: 'euro@example.com', password: '€€ab' }],
  ['a password of exactly 72 bytes of UTF-8', { email: 'seventy-two@example.com', password: 'é'.repeat(36) }],
  [
    'metadata and app of exactly 8 KiB',
    {
      email: 'full-claims@example.com',
      password: 'password-123',
      metadata: claimsOfBytes(8192),
      app: claimsOfBytes(8192),
    },
  ],
  ['active 0', { email: 'inactive@example.com', password: 'password-123', active: 0 }],
];

describe.each(BACKENDS)('POST and GET /v1/admin/users on %s', (backend) => {
  const s = scenarioApplication(backend);
  const create = async (attributes: Record<string, unknown>, extra: Record<string, unknown> = {}) =>
    s.client.send('POST', USERS, usersDocument(attributes, extra), await s.client.adminToken());

  it('creates a user: 201, Location, and the defaults name "", metadata {}, app {}, active 1, verified now', async () => {
    const response = await create({ email: 'defaults@example.com', password: 'password-123' });
    expect(response.status).toBe(201);
    const { data } = await response.json();
    const now = s.t.clock.now().toISOString();
    expect(data).toEqual({
      type: 'users',
      id: expect.stringMatching(UUID),
      attributes: {
        name: '',
        email: 'defaults@example.com',
        metadata: {},
        app: {},
        active: 1,
        email_verified: now,
        created: now,
        updated: now,
        last_login: null,
        recent_failed_logins: 0,
        banned: false,
        banned_until: null,
        ban_reason: null,
      },
    });
    expect(response.headers.get('location')).toBe(`${USERS}/${data.id}`);
  });

  it('stores every attribute it is given, and shows no password', async () => {
    const attributes = {
      name: 'Ann Example',
      email: 'ann@example.com',
      metadata: { theme: 'dark', n: [1, 2] },
      app: { plan: 'pro' },
      active: 0,
      email_verified: '2026-01-02T03:04:05.678Z',
    };
    const response = await create({ ...attributes, password: 'password-123' });
    expect(response.status).toBe(201);
    const { data } = await response.json();
    expect(data.attributes).toEqual({
      ...attributes,
      created: expect.stringMatching(ISO_MS),
      updated: expect.stringMatching(ISO_MS),
      last_login: null,
      recent_failed_logins: 0,
      banned: false,
      banned_until: null,
      ban_reason: null,
    });
    expect(Object.keys(data.attributes)).not.toContain('password');
  });

  it('trims the email and stores it lower-cased', async () => {
    const response = await create({ email: '  Mixed.Case@Example.COM ', password: 'password-123' });
    expect(response.status).toBe(201);
    expect((await response.json()).data.attributes.email).toBe('mixed.case@example.com');
  });

  it.each([
    ['in another case', 'case@example.com', 'CASE@Example.com'],
    ['with blanks around it', 'blanks@example.com', ' blanks@example.com\t'],
  ])('answers an email already taken, sent %s, with 409 email_taken', async (_, taken, email) => {
    await s.client.createUser({ email: taken });
    const response = await create({ email, password: 'password-123' });
    expect(response.status).toBe(409);
    expect(await response.json()).toEqual(errorsLike([409, 'email_taken', attribute('email')]));
  });

  it('answers data.type other than users with 409', async () => {
    const response = await s.client.send(
      'POST',
      USERS,
      { data: { type: 'admins', attributes: { email: 'x@example.com', password: 'password-123' } } },
      await s.client.adminToken(),
    );
    expect(response.status).toBe(409);
    expect(await response.json()).toEqual(errorsLike([409, 'resource_conflict', { pointer: '/data/type' }]));
  });

  it.each(invalidCreates)('refuses %s with 422 and one error per problem', async (_, attributes, pointers) => {
    await expectInvalidAttributes(await create(attributes), pointers);
  });

  it('refuses metadata nested 100,000 levels deep with 422 (it is far over 8 KiB), never a 500', async () => {
    const deep = `${'{"a":'.repeat(100_000)}1${'}'.repeat(100_000)}`;
    const body = `{"data":{"type":"users","attributes":{"email":"deep@example.com","password":"password-123","metadata":${deep}}}}`;
    const response = await s.client.request(USERS, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', ...bearer(await s.client.adminToken()) },
      body,
    });
    await expectInvalidAttributes(response, ['metadata']);
  });

  it.each(acceptedCreates)('accepts %s', async (_, attributes) => {
    const response = await create(attributes);
    expect(response.status).toBe(201);
  });

  it('lets a user created with a multi-byte password log in with it', async () => {
    await s.client.createUser({ email: 'multibyte.login@example.com', password: 'é'.repeat(36) });
    expect((await s.client.login('multibyte.login@example.com', 'é'.repeat(36), {}, '/v1/login')).status).toBe(200);
    expect((await s.client.login('multibyte.login@example.com', 'é'.repeat(35), {}, '/v1/login')).status).toBe(401);
  });

  it('of 20 concurrent creates of one email in different cases, exactly one gets 201 and 19 get 409', async () => {
    const token = await s.client.adminToken();
    const responses = await Promise.all(
      Array.from({ length: 20 }, (_, index) =>
        s.client.send(
          'POST',
          USERS,
          usersDocument({ email: index % 2 ? 'RACE@example.com' : 'race@example.com', password: `password-${index}` }),
          token,
        ),
      ),
    );
    const statuses = responses.map((response) => response.status).sort();
    expect(statuses).toEqual([201, ...Array<number>(19).fill(409)]);
    const listed = await s.client.get(`${USERS}?search[email]=race@example.com`, token);
    expect((await listed.json()).meta.total).toBe(1);
  });

  describe('GET /v1/admin/users/{uuid}', () => {
    it('returns the user exactly as the create did', async () => {
      const token = await s.client.adminToken();
      const created = await s.client.createUser({ email: 'read.me@example.com', name: 'Read Me', metadata: { a: 1 } });
      const response = await s.client.get(`${USERS}/${created.id}`, token);
      expect(response.status).toBe(200);
      expect(await response.json()).toEqual({ data: created });
    });

    it.each([
      ['an unknown uuid', UNKNOWN_ID],
      ['a malformed id', 'not-a-uuid'],
      ['an upper-case uuid', UNKNOWN_ID.toUpperCase()],
    ])('answers %s with 404 not_found', async (_, id) => {
      const response = await s.client.get(`${USERS}/${id}`, await s.client.adminToken());
      expect(response.status).toBe(404);
      expect(await response.json()).toEqual(errorsLike([404, 'not_found']));
    });
  });
});
