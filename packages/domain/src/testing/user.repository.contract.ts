import { describe, expect, it } from './test-api.ts';
import { EmailTakenError } from '../shared/errors.ts';
import type { User } from '../users/user.ts';
import type { UserRepository } from '../users/user.repository.ts';
import { useFreshRepositories, type OpenRepositories } from './contract-harness.ts';

let sequence = 0;
export function sampleUser(overrides: Partial<User> = {}): User {
  sequence += 1;
  const created = new Date(Date.UTC(2026, 0, 1, 0, 0, 0, sequence));
  return {
    id: `00000000-0000-4000-8000-${sequence.toString(16).padStart(12, '0')}`,
    name: `User ${sequence}`,
    email: `user${sequence}@example.com`,
    passwordHash: '$2b$04$abcdefghijklmnopqrstuuDmB0GW2xPDL6lExdWxKmbF0rPjmz6Oy',
    metadata: { plan: 'free', nested: { list: [1, 'two', null, true] }, unicode: 'żółw 🐢' },
    app: { roles: ['reader'] },
    active: 1,
    created,
    updated: created,
    ...overrides,
  };
}

/** The behaviour every UserRepository promises, run against the fake, SQLite and PostgreSQL. */
export function describeUserRepositoryContract(backend: string, open: OpenRepositories): void {
  describe(`UserRepository contract (${backend})`, () => {
    let users: UserRepository;
    useFreshRepositories(open, (repositories) => (users = repositories.users));

    it('returns an inserted user unchanged, by id and by email', async () => {
      const user = sampleUser();
      await users.insert(user);
      expect(await users.findById(user.id)).toEqual(user);
      expect(await users.findByEmail(user.email)).toEqual(user);
    });

    it('answers null for an unknown id or email', async () => {
      expect(await users.findById('00000000-0000-4000-8000-ffffffffffff')).toBeNull();
      expect(await users.findByEmail('nobody@example.com')).toBeNull();
    });

    it('refuses a second user with the same email with EmailTakenError', async () => {
      await users.insert(sampleUser({ email: 'same@example.com' }));
      await expect(users.insert(sampleUser({ email: 'same@example.com' }))).rejects.toBeInstanceOf(EmailTakenError);
    });

    it('lets exactly one of 20 concurrent inserts of one email succeed', async () => {
      const results = await Promise.allSettled(
        Array.from({ length: 20 }, () => users.insert(sampleUser({ email: 'race@example.com' }))),
      );
      expect(results.filter((result) => result.status === 'fulfilled')).toHaveLength(1);
      for (const result of results.filter((r) => r.status === 'rejected')) {
        expect((result as PromiseRejectedResult).reason).toBeInstanceOf(EmailTakenError);
      }
    });

    it('update replaces every attribute and returns the stored record', async () => {
      const user = sampleUser();
      await users.insert(user);
      const changed: User = {
        ...user,
        name: 'Renamed',
        email: 'renamed@example.com',
        passwordHash: 'other-hash',
        metadata: { theme: 'dark' },
        app: {},
        active: 0,
        updated: new Date(user.updated.getTime() + 5000),
      };
      expect(await users.update(changed)).toEqual(changed);
      expect(await users.findById(user.id)).toEqual(changed);
      expect(await users.findByEmail(user.email)).toBeNull();
    });

    it('update to another user\'s email fails with EmailTakenError and changes nothing', async () => {
      const first = sampleUser();
      const second = sampleUser();
      await users.insert(first);
      await users.insert(second);
      await expect(users.update({ ...second, email: first.email })).rejects.toBeInstanceOf(EmailTakenError);
      expect(await users.findById(second.id)).toEqual(second);
    });

    it('update of an unknown id answers null', async () => {
      expect(await users.update(sampleUser())).toBeNull();
    });

    it('delete removes the user once', async () => {
      const user = sampleUser();
      await users.insert(user);
      expect(await users.delete(user.id)).toBe(true);
      expect(await users.findById(user.id)).toBeNull();
      expect(await users.delete(user.id)).toBe(false);
    });

    it('lists by created ascending, then id, in pages, with the total', async () => {
      const sameInstant = new Date('2026-02-01T00:00:00.000Z');
      const later = sampleUser({ created: new Date('2026-03-01T00:00:00.000Z') });
      const tieB = sampleUser({ id: '00000000-0000-4000-8000-00000000bbbb', created: sameInstant });
      const tieA = sampleUser({ id: '00000000-0000-4000-8000-00000000aaaa', created: sameInstant });
      const earliest = sampleUser({ created: new Date('2025-12-01T00:00:00.000Z') });
      for (const user of [later, tieB, tieA, earliest]) await users.insert(user);

      const first = await users.list({ page: 1, size: 3 });
      expect(first.total).toBe(4);
      expect(first.users.map((u) => u.id)).toEqual([earliest.id, tieA.id, tieB.id]);
      const second = await users.list({ page: 2, size: 3 });
      expect(second.users.map((u) => u.id)).toEqual([later.id]);
      expect(await users.list({ page: 3, size: 3 })).toEqual({ users: [], total: 4 });
    });

    it('searches email by substring, case-insensitively', async () => {
      await users.insert(sampleUser({ email: 'alice@example.com' }));
      await users.insert(sampleUser({ email: 'malice@corp.io' }));
      await users.insert(sampleUser({ email: 'bob@example.com' }));
      const found = await users.list({ page: 1, size: 10, emailContains: 'alice' });
      expect(found.users.map((u) => u.email).sort()).toEqual(['alice@example.com', 'malice@corp.io']);
      expect(found.total).toBe(2);
      expect((await users.list({ page: 1, size: 10, emailContains: 'ALICE@EX' })).total).toBe(1);
    });

    it('takes %, _ and \\ in the search term literally', async () => {
      for (const email of ['a%b@x.io', 'axb@x.io', 'a_b@x.io', 'ayb@x.io', 'a\\b@x.io', 'a\\\\b@x.io']) {
        await users.insert(sampleUser({ email }));
      }
      const emails = async (term: string) =>
        (await users.list({ page: 1, size: 10, emailContains: term })).users.map((u) => u.email);
      expect(await emails('a%b')).toEqual(['a%b@x.io']);
      expect(await emails('a_b')).toEqual(['a_b@x.io']);
      expect(await emails('a\\b')).toEqual(['a\\b@x.io']);
      expect(await emails('%')).toEqual(['a%b@x.io']);
      expect(await emails('_')).toEqual(['a_b@x.io']);
    });
  });
}
