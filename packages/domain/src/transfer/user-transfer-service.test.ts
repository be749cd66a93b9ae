import { beforeEach, describe, expect, it } from '../testing/test-api.ts';
import { ADDRESS, buildDomain, OTHER_ADDRESS, PASSWORD, type Domain } from '../testing/domain-fixture.ts';
import { InvalidCredentialsError } from '../shared/errors.ts';
import { NO_PASSWORD_HASH } from '../users/password-match.ts';
import type { User } from '../users/user.ts';
import { toTransferRecord } from './transfer-record.ts';
import type { ImportOptions, ImportSource } from './user-transfer-service.ts';

const sources = (...values: unknown[]): ImportSource[] => values.map((value, i) => ({ line: i + 1, value }));
const record = (n: number, extra: Record<string, unknown> = {}) => ({
  email: `person${n}@example.com`,
  password_hash: `legacy:secret-${n}-pw`,
  ...extra,
});

describe('UserTransferService', () => {
  let domain: Domain;
  const run = (input: ImportSource[] | AsyncIterable<ImportSource>, options: Partial<ImportOptions> = {}) =>
    domain.transfer.import(input, { onConflict: 'skip', dryRun: false, ...options });
  const allUsers = async () => {
    const users: User[] = [];
    for await (const user of domain.transfer.export()) users.push(user);
    return users;
  };
  beforeEach(() => {
    domain = buildDomain();
  });

  it('creates users from records with defaults, keeping given ids, timestamps and hashes, hashing given passwords', async () => {
    const report = await run(
      sources(
        { email: ' Ada@Example.COM ', password: 'correct horse' },
        {
          id: '0191B0F0-0000-7000-8000-000000000001',
          name: 'Grace',
          email: 'grace@example.com',
          password_hash: 'legacy:imported-pw',
          metadata: { theme: 'dark' },
          app: { plan: 'pro' },
          active: 0,
          created: '2020-01-02T03:04:05.678Z',
          updated: '2021-01-02T03:04:05Z',
        },
      ),
    );
    expect(report).toMatchObject({ created: 2, updated: 0, skipped: 0, rejected: 0, failure: null });
    const ada = await domain.repositories.users.findByEmail('ada@example.com');
    expect(ada).toMatchObject({
      name: '',
      passwordHash: 'plain:correct horse',
      metadata: {},
      app: {},
      active: 1,
      created: domain.clock.now(),
    });
    expect(await domain.repositories.users.findById('0191b0f0-0000-7000-8000-000000000001')).toEqual({
      id: '0191b0f0-0000-7000-8000-000000000001',
      name: 'Grace',
      email: 'grace@example.com',
      passwordHash: 'legacy:imported-pw',
      metadata: { theme: 'dark' },
      app: { plan: 'pro' },
      active: 0,
      created: new Date('2020-01-02T03:04:05.678Z'),
      updated: new Date('2021-01-02T03:04:05.000Z'),
      version: 1,
      lastLogin: null,
      emailVerified: domain.clock.now(),
      bannedAt: null,
      bannedUntil: null,
      banReason: null,
    });
  });

  it('creates a user from a record without password or hash, with no password any login matches, and counts it', async () => {
    const report = await run(sources({ email: 'nopass@example.com' }, record(2)));
    expect(report).toMatchObject({ created: 2, createdWithoutPassword: 1, rejected: 0 });
    const user = (await domain.repositories.users.findByEmail('nopass@example.com'))!;
    expect(user.passwordHash).toBe(NO_PASSWORD_HASH);
    // Not the stored hash, nor the password the login verifies unknown emails against.
    for (const password of [NO_PASSWORD_HASH, 'timing-equaliser-password', PASSWORD]) {
      await expect(domain.userLogin(user.email, password, OTHER_ADDRESS)).rejects.toBeInstanceOf(
        InvalidCredentialsError,
      );
    }
  });

  it('an export without hashes reads back: every user again, each without a password', async () => {
    await domain.createUser({ name: 'Ada' });
    await domain.createUser();
    const records = (await allUsers()).map((user) => toTransferRecord(user, false));
    const target = buildDomain();
    const report = await target.transfer.import(sources(...records), { onConflict: 'fail', dryRun: false });
    expect(report).toMatchObject({ created: 2, createdWithoutPassword: 2, rejected: 0 });
    const copied: User[] = [];
    for await (const user of target.transfer.export()) copied.push(user);
    expect(copied).toEqual((await allUsers()).map((user) => ({ ...user, passwordHash: NO_PASSWORD_HASH })));
  });

  it('an export with hashes writes none for a user without a password, who reads back as such', async () => {
    await run(sources({ email: 'nopass@example.com' }, record(2)));
    const records = (await allUsers()).map((user) => toTransferRecord(user, true));
    expect(records.map((exported) => 'password_hash' in exported)).toEqual([false, true]);
    const target = buildDomain();
    const report = await target.transfer.import(sources(...records), { onConflict: 'fail', dryRun: false });
    expect(report).toMatchObject({ created: 2, createdWithoutPassword: 1, rejected: 0 });
    expect((await target.repositories.users.findByEmail('nopass@example.com'))?.passwordHash).toBe(NO_PASSWORD_HASH);
  });

  it.each([
    ['a record that is not an object', ['ada@example.com'], /must be a JSON object/],
    ['an unknown attribute', [record(1, { role: 'admin' })], /role is not an attribute/],
    ['a missing email', [{ password: 'correct horse' }], /email is required/],
    ['an invalid email', [record(1, { email: 'not-an-email' })], /email must be a valid email address/],
    ['both a password and a hash', [record(1, { password: 'correct horse' })], /password and password_hash exclude/],
    ['a short password', [{ email: 'a@example.com', password: 'short' }], /password must be at least 8 bytes/],
    [
      'a hash over the cost ceiling',
      [record(1, { password_hash: 'legacy-costly:x' })],
      /password_hash has a cost over the ceiling/,
    ],
    ['an unsupported hash', [record(1, { password_hash: 'md5:abc' })], /password_hash is not a supported hash/],
    ['a malformed id', [record(1, { id: '42' })], /id must be a UUID/],
    [
      'a timestamp without a zone',
      [record(1, { created: '2020-01-02T03:04:05' })],
      /created must be an ISO 8601 UTC timestamp/,
    ],
    ['active 2', [record(1, { active: 2 })], /active must be 0 or 1/],
    [
      'a verification that is no time',
      [record(1, { email_verified: 'yes' })],
      /email_verified must be true, false or an ISO 8601 UTC timestamp/,
    ],
    [
      'a verification that is a number',
      [record(1, { email_verified: 1 })],
      /email_verified must be a string or a boolean/,
    ],
    ['metadata that is an array', [record(1, { metadata: [] })], /metadata must be a JSON object/],
    ['a null', [record(1, { name: null })], /name must not be null/],
  ])('rejects %s with its line and reason, and writes nothing of it', async (_, values, reason) => {
    const report = await run(sources(record(0), ...values));
    expect(report.rejected).toBe(1);
    expect(report.rejections.map((rejection) => rejection.line)).toEqual([2]);
    expect(report.rejections[0]?.reason).toMatch(reason);
    expect((await allUsers()).map((user) => user.email)).toEqual(['person0@example.com']);
  });

  it("reports an unreadable line with the reader's words", async () => {
    const report = await run([
      { line: 1, value: record(1) },
      { line: 2, unreadable: 'is not valid JSON' },
    ]);
    expect(report).toMatchObject({ created: 1, rejected: 1, rejections: [{ line: 2, reason: 'is not valid JSON' }] });
  });

  it('with 1% bad records, reports every bad one with its line and writes every good one', async () => {
    const values = Array.from({ length: 1000 }, (_, i) =>
      i % 100 === 42 ? record(i, { email: `bad-${i}` }) : record(i),
    );
    const heard: number[] = [];
    const report = await run(sources(...values), {
      batchSize: 64,
      onRejected: (rejection) => heard.push(rejection.line),
    });
    const badLines = values.flatMap((_, i) => (i % 100 === 42 ? [i + 1] : []));
    expect(report.rejections.map((rejection) => rejection.line)).toEqual(badLines);
    expect(heard).toEqual(badLines);
    expect(report).toMatchObject({ created: 990, rejected: 10 });
    expect((await allUsers()).some((user) => user.email.startsWith('bad-'))).toBe(false);
  });

  it('a dry run reports what an import would do, conflicts included, and writes nothing', async () => {
    await domain.createUser({ email: 'person2@example.com' });
    const input = sources(record(1), record(2), { email: 'x' }, record(4), record(2, { name: 'again' }));
    const report = await run(input, { dryRun: true, onConflict: 'fail' });
    expect(report).toMatchObject({ dryRun: true, created: 2, rejected: 3, failure: null });
    expect(report.rejections.map((rejection) => rejection.line)).toEqual([3, 2, 5]);
    expect((await allUsers()).map((user) => user.email)).toEqual(['person2@example.com']);
  });

  describe('on conflict', () => {
    let existing: User;
    beforeEach(async () => {
      const { id } = await domain.createUser({ email: 'person1@example.com', name: 'Before' });
      existing = (await domain.repositories.users.findById(id))!;
    });

    it('skip leaves the existing user as it was', async () => {
      expect(await run(sources(record(1, { name: 'After' }), record(2)))).toMatchObject({ created: 1, skipped: 1 });
      expect(await domain.repositories.users.findById(existing.id)).toEqual(existing);
    });

    it('update replaces its attributes, keeps its id and created, and ends its sessions when the password changed', async () => {
      const grant = await domain.userLogin(existing.email, PASSWORD, ADDRESS);
      const loggedIn = domain.clock.now();
      domain.clock.advance(60);
      expect(
        await run(sources(record(1, { name: 'After', app: { plan: 'pro' } })), { onConflict: 'update' }),
      ).toMatchObject({ updated: 1 });
      expect(await domain.repositories.users.findById(existing.id)).toEqual({
        ...existing,
        name: 'After',
        app: { plan: 'pro' },
        passwordHash: 'legacy:secret-1-pw',
        updated: domain.clock.now(),
        version: existing.version + 1,
        lastLogin: loggedIn,
      });
      expect((await domain.repositories.sessions.findSession(grant.sessionId))?.revoked).toEqual(domain.clock.now());
    });

    it("update keeps the stored user's ban, which an export does not carry", async () => {
      const banned = await domain.users.ban(existing.id, { reason: 'spam', until: null });
      domain.clock.advance(60);
      expect(await run(sources(record(1, { name: 'After' })), { onConflict: 'update' })).toMatchObject({ updated: 1 });
      expect(await domain.repositories.users.findById(existing.id)).toMatchObject({
        name: 'After',
        bannedAt: banned.bannedAt,
        bannedUntil: null,
        banReason: 'spam',
      });
    });

    it('update with a record without password or hash keeps the stored password, and its sessions', async () => {
      const grant = await domain.userLogin(existing.email, PASSWORD, ADDRESS);
      const { password_hash: _, ...withoutHash } = toTransferRecord(existing, true);
      const report = await run(sources({ ...withoutHash, name: 'After' }), { onConflict: 'update' });
      expect(report).toMatchObject({ updated: 1, createdWithoutPassword: 0 });
      expect(await domain.repositories.users.findById(existing.id)).toMatchObject({
        name: 'After',
        passwordHash: existing.passwordHash,
      });
      expect((await domain.repositories.sessions.findSession(grant.sessionId))?.revoked).toBeNull();
    });

    it('update skips a record that would change nothing, so a re-run changes nothing', async () => {
      const same = { ...toTransferRecord(existing, true), name: existing.name };
      domain.clock.advance(60);
      expect(await run(sources(same), { onConflict: 'update' })).toMatchObject({ updated: 0, skipped: 1 });
      expect(await domain.repositories.users.findById(existing.id)).toEqual(existing);
    });

    it('update refuses a record whose id names another user than its email', async () => {
      const other = await domain.createUser({ email: 'other@example.com' });
      const report = await run(sources(record(1, { id: other.id })), { onConflict: 'update' });
      expect(report.rejections).toEqual([{ line: 1, reason: 'its id and its email belong to two different users' }]);
    });

    it('fail stops at the first conflict: earlier batches stay written, nothing of its batch is', async () => {
      const report = await run(sources(record(2), record(3), record(4), record(1), record(5)), {
        onConflict: 'fail',
        batchSize: 2,
      });
      expect(report).toMatchObject({ created: 2, failure: { line: 4 } });
      expect(report.failure?.reason).toMatch(/exists already/);
      expect((await allUsers()).map((user) => user.email).sort()).toEqual([
        'person1@example.com',
        'person2@example.com',
        'person3@example.com',
      ]);
    });

    it('a later record of the same input meets an earlier one as a conflict', async () => {
      expect(await run(sources(record(7), record(7, { name: 'Second' })))).toMatchObject({ created: 1, skipped: 1 });
      expect((await domain.repositories.users.findByEmail('person7@example.com'))?.name).toBe('');
    });
  });

  it('an import interrupted mid-way and run again ends as one clean run, under skip and under update', async () => {
    const input = Array.from({ length: 50 }, (_, i) =>
      record(i, {
        id: `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`,
        created: '2024-01-01T00:00:00.000Z',
        updated: '2024-01-02T00:00:00.000Z',
      }),
    );
    const clean = buildDomain();
    await clean.transfer.import(sources(...input), { onConflict: 'skip', dryRun: false, batchSize: 8 });
    const expected = [];
    for await (const user of clean.transfer.export()) expected.push(user);

    async function* crashingAfter(count: number) {
      yield* sources(...input).slice(0, count);
      throw new Error('killed');
    }
    await expect(run(crashingAfter(21), { batchSize: 8 })).rejects.toBeInstanceOf(Error);
    expect((await allUsers()).length).toBe(16);
    for (const onConflict of ['skip', 'update'] as const) {
      const report = await run(sources(...input), { onConflict, batchSize: 8 });
      expect(report).toMatchObject({ rejected: 0, failure: null });
      expect(await allUsers()).toEqual(expected);
    }
  });

  it('exports every user in (created, id) order, or those whose email contains a term, a page at a time', async () => {
    const values = Array.from({ length: 2100 }, (_, i) => record(i));
    await run(sources(...values), { batchSize: 500 });
    const users = await allUsers();
    expect(users).toHaveLength(2100);
    expect(new Set(users.map((user) => user.id)).size).toBe(2100);
    const matching = [];
    for await (const user of domain.transfer.export({ emailContains: ' PERSON209' })) matching.push(user.email);
    expect(matching.sort()).toEqual(
      ['person209@example.com', ...Array.from({ length: 10 }, (_, i) => `person209${i}@example.com`)].sort(),
    );
  });

  it('an update keeps a stored verification unless the record states one', async () => {
    const user = await domain.createUser({ email: 'person0@example.com', emailVerified: false });
    await run(sources(record(0, { name: 'Renamed' })), { onConflict: 'update' });
    expect((await domain.repositories.users.findById(user.id))?.emailVerified).toBeNull();
    await run(sources(record(0, { email_verified: true })), { onConflict: 'update' });
    expect((await domain.repositories.users.findById(user.id))?.emailVerified).toEqual(domain.clock.now());
  });

  it('an export imported into an empty store reproduces every user exactly', async () => {
    await domain.createUser({
      name: 'Żaneta 🐢',
      metadata: { nested: { list: [1, 'two', null] } },
      app: { roles: ['x'] },
      active: 0,
      emailVerified: false,
    });
    await domain.createUser({ emailVerified: '2020-01-02T03:04:05.678Z' });
    const records = (await allUsers()).map((user) => toTransferRecord(user, true));
    const target = buildDomain();
    target.clock.advance(3600);
    const report = await target.transfer.import(sources(...JSON.parse(JSON.stringify(records))), {
      onConflict: 'fail',
      dryRun: false,
    });
    expect(report).toMatchObject({ created: 2, rejected: 0 });
    const copied = [];
    for await (const user of target.transfer.export()) copied.push(user);
    expect(copied).toEqual(await allUsers());
  });
});
