import { describe, expect, it } from './test-api.ts';
import type { Repositories } from '../repositories.ts';
import type { User } from '../users/user.ts';
import { useFreshRepositories, type OpenRepositories } from './contract-harness.ts';
import { NO_BAN } from '../users/user-ban.ts';

const at = new Date('2026-01-01T00:00:00.000Z');
const user: User = {
  id: '00000000-0000-4000-8000-0000000000a1',
  name: 'Imported',
  email: 'imported@example.com',
  passwordHash: '$argon2id$imported',
  metadata: {},
  app: {},
  active: 1,
  created: at,
  updated: at,
  version: 1,
  lastLogin: null,
  emailVerified: null,
  ...NO_BAN,
};
const admin = {
  id: '00000000-0000-4000-8000-0000000000b1',
  name: 'Admin',
  email: 'admin@example.com',
  passwordHash: '$2b$12$old',
  created: at,
  updated: at,
  keyFileStamp: null,
  role: 'owner' as const,
};

/** The behaviour every PasswordRehashRepository promises. */
export function describePasswordRehashRepositoryContract(backend: string, open: OpenRepositories): void {
  describe(`PasswordRehashRepository contract (${backend})`, () => {
    let repositories: Repositories;
    useFreshRepositories(open, (opened) => (repositories = opened));

    it('replaces the hash that verified, and nothing else of the user', async () => {
      await repositories.users.insert(user);
      expect(await repositories.rehash.replaceHash('user', user.id, user.passwordHash, '$2b$10$new')).toBe(true);
      expect(await repositories.users.findById(user.id)).toEqual({ ...user, passwordHash: '$2b$10$new' });
    });

    it('replaces an admin hash in the admins, never a user with the same id', async () => {
      await repositories.admins.insert(admin);
      expect(await repositories.rehash.replaceHash('user', admin.id, admin.passwordHash, '$2b$10$new')).toBe(false);
      expect(await repositories.rehash.replaceHash('admin', admin.id, admin.passwordHash, '$2b$10$new')).toBe(true);
      expect((await repositories.admins.findById(admin.id))?.passwordHash).toBe('$2b$10$new');
    });

    it('leaves a hash that changed since the verify alone (a password change wins)', async () => {
      await repositories.users.insert({ ...user, passwordHash: '$2b$10$changed-by-admin' });
      expect(await repositories.rehash.replaceHash('user', user.id, user.passwordHash, '$2b$10$rehash')).toBe(false);
      expect((await repositories.users.findById(user.id))?.passwordHash).toBe('$2b$10$changed-by-admin');
      expect(await repositories.rehash.replaceHash('user', 'ffffffff-0000-4000-8000-000000000000', 'x', 'y')).toBe(
        false,
      );
    });

    it('lets exactly one of many concurrent rehashes of the same verified hash win, over rounds', async () => {
      const rounds = 10;
      const racers = 8;
      let lost = 0;
      for (let round = 0; round < rounds; round += 1) {
        const id = `00000000-0000-4000-8000-${String(round).padStart(12, '0')}`;
        await repositories.users.insert({ ...user, id, email: `r${round}@example.com` });
        const wins = await Promise.all(
          Array.from({ length: racers }, (_, i) =>
            repositories.rehash.replaceHash('user', id, user.passwordHash, `$2b$10$racer-${i}`),
          ),
        );
        const stored = (await repositories.users.findById(id))?.passwordHash;
        const winners = wins.flatMap((won, i) => (won ? [`$2b$10$racer-${i}`] : []));
        if (winners.length !== 1 || stored !== winners[0]) lost += 1;
      }
      expect(lost).toBe(0);
    });
  });
}
