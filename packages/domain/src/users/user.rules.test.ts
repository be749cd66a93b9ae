import { describe, expect, it } from '../testing/test-api.ts';
import { jsonOfBytes, pointerTo as at } from '../testing/domain-fixture.ts';
import { sampleUser } from '../testing/user.repository.contract.ts';
import type { User } from './user.ts';
import {
  applyUserPatch,
  changesEndSessions,
  CLAIMS_MAX_BYTES,
  EMAIL_MAX_LENGTH,
  isActiveFlag,
  isValidEmail,
  NAME_MAX_LENGTH,
  newUserIssues,
  normalizeEmail,
  passwordProblem,
  userAttributeIssues,
} from './user.rules.ts';

const pointersOf = (issues: { source: object }[]) => issues.map((issue) => issue.source);

describe('normalizeEmail', () => {
  it('trims surrounding whitespace and lower-cases', () => {
    expect(normalizeEmail('  Alice.Smith@Example.COM \n')).toBe('alice.smith@example.com');
  });

  it('leaves an already normal address unchanged', () => {
    expect(normalizeEmail('bob@example.com')).toBe('bob@example.com');
  });
});

describe('isValidEmail', () => {
  it.each([
    'alice@example.com',
    'alice.smith@example.co.uk',
    'alice+tag@example.com',
    "o'reilly@example.ie",
    'user_name-1@sub.example-host.org',
    'x@example.museum',
    'jürgen@bücher.de',
  ])('accepts %s', (email) => {
    expect(isValidEmail(email)).toBe(true);
  });

  it.each([
    ['an empty string', ''],
    ['no @', 'alice.example.com'],
    ['two @', 'alice@bob@example.com'],
    ['no local part', '@example.com'],
    ['no domain', 'alice@'],
    ['a domain without a dot', 'alice@localhost'],
    ['a one-letter top-level domain', 'alice@example.c'],
    ['a space inside', 'alice smith@example.com'],
    ['consecutive dots', 'alice..smith@example.com'],
    ['a trailing dot', 'alice@example.com.'],
    ['a domain starting with a dot', 'alice@.example.com'],
    ['a local part starting with a dot', '.alice@example.com'],
    ['a local part ending with a dot', 'alice.@example.com'],
    ['a domain label starting with a hyphen', 'alice@-example.com'],
    ['a domain label ending with a hyphen', 'alice@example-.com'],
    ['a numeric top-level domain', 'alice@example.123'],
    ['an underscore in the domain', 'alice@ex_ample.com'],
    ['angle brackets', '<alice@example.com>'],
    ['a display name', 'Alice <alice@example.com>'],
  ])('rejects %s', (_case, email) => {
    expect(isValidEmail(email)).toBe(false);
  });

  it(`accepts ${EMAIL_MAX_LENGTH} characters and rejects one more`, () => {
    const domain = '@example.com';
    const longest = 'a'.repeat(EMAIL_MAX_LENGTH - domain.length) + domain;
    expect(isValidEmail(longest)).toBe(true);
    expect(isValidEmail(`a${longest}`)).toBe(false);
  });
});

describe('passwordProblem', () => {
  it.each([
    ['7 ASCII bytes', 'a'.repeat(7)],
    ['73 ASCII bytes', 'a'.repeat(73)],
    ['37 two-byte characters (74 bytes)', 'é'.repeat(37)],
    ['19 four-byte characters (76 bytes)', '🔑'.repeat(19)],
    ['an empty string', ''],
  ])('refuses %s', (_case, password) => {
    expect(passwordProblem(password)).toEqual(expect.any(String));
  });

  it.each([
    ['8 ASCII bytes', 'a'.repeat(8)],
    ['72 ASCII bytes', 'a'.repeat(72)],
    ['36 two-byte characters (72 bytes)', 'é'.repeat(36)],
    ['4 two-byte characters (8 bytes)', 'éééé'],
    ['18 four-byte characters (72 bytes)', '🔑'.repeat(18)],
  ])('accepts %s', (_case, password) => {
    expect(passwordProblem(password)).toBeNull();
  });

  it('counts UTF-8 bytes, not characters, and says so', () => {
    expect(passwordProblem('é'.repeat(37))).toMatch(/72 bytes/);
  });

  it('refuses a NUL character even at an acceptable length', () => {
    expect(passwordProblem('password\u0000x')).toMatch(/NUL/);
  });
});

describe('isActiveFlag', () => {
  it('accepts only 0 and 1', () => {
    expect([0, 1, 2, -1, 0.5, Number.NaN].map(isActiveFlag)).toEqual([true, true, false, false, false, false]);
  });
});

describe('userAttributeIssues', () => {
  it('finds nothing wrong with an empty patch or valid attributes', () => {
    expect(userAttributeIssues({})).toEqual([]);
    expect(
      userAttributeIssues({
        name: 'Alice',
        email: ' Alice@Example.com ',
        password: 'long enough',
        active: 0,
        metadata: { theme: 'dark' },
        app: { roles: ['admin'] },
      }),
    ).toEqual([]);
  });

  it('reports one issue per bad attribute, pointing at /data/attributes/<name>', () => {
    const issues = userAttributeIssues({
      name: 'n'.repeat(NAME_MAX_LENGTH + 1),
      email: 'not-an-email',
      password: 'short',
      active: 2,
      metadata: jsonOfBytes(CLAIMS_MAX_BYTES + 1),
      app: jsonOfBytes(CLAIMS_MAX_BYTES + 1),
    });
    expect(pointersOf(issues)).toEqual(['name', 'email', 'password', 'active', 'metadata', 'app'].map(at));
    for (const issue of issues) expect(issue.detail).toEqual(expect.any(String));
  });

  it(`accepts a name of ${NAME_MAX_LENGTH} characters`, () => {
    expect(userAttributeIssues({ name: 'n'.repeat(NAME_MAX_LENGTH) })).toEqual([]);
  });

  it.each(['metadata', 'app'] as const)(
    `accepts %s of exactly ${CLAIMS_MAX_BYTES} bytes and refuses one byte more`,
    (attribute) => {
      expect(userAttributeIssues({ [attribute]: jsonOfBytes(CLAIMS_MAX_BYTES) })).toEqual([]);
      expect(pointersOf(userAttributeIssues({ [attribute]: jsonOfBytes(CLAIMS_MAX_BYTES + 1) }))).toEqual([
        at(attribute),
      ]);
    },
  );

  it('measures metadata in UTF-8 bytes of its JSON', () => {
    const multiByte = { text: 'ż'.repeat(4096) }; // 4096 characters, 8192 bytes of text
    expect(pointersOf(userAttributeIssues({ metadata: multiByte }))).toEqual([at('metadata')]);
  });

  it('validates the email as it will be stored (trimmed, lower-cased)', () => {
    expect(userAttributeIssues({ email: '  ALICE@EXAMPLE.COM  ' })).toEqual([]);
  });

  it('never repeats the offending password in the detail', () => {
    const [issue] = userAttributeIssues({ password: 'secret!' });
    expect(issue?.detail).not.toContain('secret!');
  });
});

describe('newUserIssues', () => {
  it('requires email and password', () => {
    expect(pointersOf(newUserIssues({}))).toEqual([at('email'), at('password')]);
    expect(pointersOf(newUserIssues({ email: 'a@example.com' }))).toEqual([at('password')]);
  });

  it('adds the attribute rules to the missing ones', () => {
    expect(pointersOf(newUserIssues({ password: 'short', active: 3 }))).toEqual([
      at('email'),
      at('password'),
      at('active'),
    ]);
  });

  it('finds nothing wrong with just a valid email and password', () => {
    expect(newUserIssues({ email: 'a@example.com', password: 'long enough' })).toEqual([]);
  });
});

describe('applyUserPatch', () => {
  const now = new Date('2026-06-01T12:00:00.000Z');
  const user: User = sampleUser({
    name: 'Alice',
    metadata: { theme: 'dark', lang: 'en' },
    app: { roles: ['reader'] },
    lastLogin: new Date('2026-05-01T00:00:00.000Z'),
    bannedAt: new Date('2026-05-02T00:00:00.000Z'),
    bannedUntil: new Date('2026-07-01T00:00:00.000Z'),
    banReason: 'spam',
  });

  it('keeps every attribute absent from the patch, never turning it into null', () => {
    const patched = applyUserPatch(user, {}, now);
    expect(patched).toEqual({ ...user, updated: now, version: user.version + 1 });
    for (const value of Object.values(patched)) expect(value).not.toBeNull();
  });

  it('treats a key present with the value undefined as absent', () => {
    expect(applyUserPatch(user, { name: undefined, metadata: undefined }, now)).toEqual({
      ...user,
      updated: now,
      version: user.version + 1,
    });
  });

  it('changes only the attributes present', () => {
    const patched = applyUserPatch(user, { name: 'Alicia', active: 0 }, now);
    expect(patched).toEqual({ ...user, name: 'Alicia', active: 0, updated: now, version: user.version + 1 });
  });

  it('accepts falsy values as changes: an empty name, active 0, an empty object', () => {
    const patched = applyUserPatch(user, { name: '', active: 0, metadata: {} }, now);
    expect([patched.name, patched.active, patched.metadata]).toEqual(['', 0, {}]);
  });

  it('replaces metadata and app whole instead of merging them', () => {
    const patched = applyUserPatch(user, { metadata: { lang: 'fr' }, app: { plan: 'pro' } }, now);
    expect(patched.metadata).toEqual({ lang: 'fr' });
    expect(patched.app).toEqual({ plan: 'pro' });
  });

  it('normalises a new email', () => {
    expect(applyUserPatch(user, { email: '  New@Example.COM ' }, now).email).toBe('new@example.com');
  });

  it('sets updated to now, counts one more version and keeps id and created', () => {
    const patched = applyUserPatch(user, { name: 'Alicia' }, now);
    expect([patched.id, patched.created, patched.updated, patched.version]).toEqual([
      user.id,
      user.created,
      now,
      user.version + 1,
    ]);
  });

  it('returns a new record and leaves the original untouched', () => {
    const before = structuredClone(user);
    const patched = applyUserPatch(user, { name: 'Alicia', metadata: {} }, now);
    expect(patched).not.toBe(user);
    expect(user).toEqual(before);
  });
});

describe('changesEndSessions', () => {
  const user: User = sampleUser({ active: 1, email: 'alice@example.com' });

  it('is true whenever a password is sent, even the current one', () => {
    expect(changesEndSessions(user, { passwordHash: 'another hash' })).toBe(true);
    expect(changesEndSessions(user, { passwordHash: user.passwordHash })).toBe(true);
  });

  it('is true for deactivation', () => {
    expect(changesEndSessions(user, { active: 0 })).toBe(true);
  });

  it('is true for a new email, but not for the same one in another case', () => {
    expect(changesEndSessions(user, { email: 'alicia@example.com' })).toBe(true);
    expect(changesEndSessions(user, { email: ' Alice@Example.com ' })).toBe(false);
  });

  it('is false for reactivation, a still-inactive account, or other attributes', () => {
    const inactive: User = { ...user, active: 0 };
    expect(changesEndSessions(inactive, { active: 1 })).toBe(false);
    expect(changesEndSessions(inactive, { active: 0 })).toBe(false);
    expect(changesEndSessions(user, { name: 'x', email: user.email, metadata: {}, app: {} })).toBe(false);
  });
});
