import { describe, expect, it } from './test-api.ts';
import { EmailTakenError } from '../shared/errors.ts';
import type { Admin } from '../admins/admin.ts';
import type { AdminRepository } from '../admins/admin.repository.ts';
import type { SessionRepository } from '../sessions/session.repository.ts';
import { useFreshRepositories, type OpenRepositories } from './contract-harness.ts';
import { firstTokenOf, sampleSession } from './sample-session.ts';

let sequence = 0;
export function sampleAdmin(overrides: Partial<Admin> = {}): Admin {
  sequence += 1;
  const created = new Date(Date.UTC(2026, 0, 1, 0, 0, sequence));
  return {
    id: `20000000-0000-4000-8000-${sequence.toString(16).padStart(12, '0')}`,
    name: 'Administrator',
    email: `admin${sequence}@example.com`,
    passwordHash: 'hash',
    role: 'owner',
    created,
    updated: created,
    keyFileStamp: null,
    ...overrides,
  };
}

/** The behaviour every AdminRepository promises. */
export function describeAdminRepositoryContract(backend: string, open: OpenRepositories): void {
  describe(`AdminRepository contract (${backend})`, () => {
    let admins: AdminRepository;
    let sessions: SessionRepository;
    useFreshRepositories(open, (repositories) => {
      admins = repositories.admins;
      sessions = repositories.sessions;
    });

    /** A live session of `admin`, opened as a login would. */
    async function sessionOf(admin: Admin): Promise<string> {
      const session = sampleSession({
        kind: 'admin',
        subjectId: admin.id,
        expires: new Date('2030-01-01T00:00:00.000Z'),
      });
      expect(await sessions.create(session, firstTokenOf(session), admin)).toBe(true);
      return session.id;
    }

    it('finds an inserted admin by id and email; null when absent', async () => {
      const admin = sampleAdmin();
      expect(await admins.findFirst()).toBeNull();
      await admins.insert(admin);
      expect(await admins.findById(admin.id)).toEqual(admin);
      expect(await admins.findByEmail(admin.email)).toEqual(admin);
      expect(await admins.findByEmail('other@example.com')).toBeNull();
    });

    it('findFirst() answers the earliest-created admin', async () => {
      const later = sampleAdmin();
      const earlier = sampleAdmin({ created: new Date('2020-01-01T00:00:00.000Z') });
      await admins.insert(later);
      await admins.insert(earlier);
      expect(await admins.findFirst()).toEqual(earlier);
    });

    it('update() stores new credentials; a taken email fails with EmailTakenError', async () => {
      const admin = sampleAdmin();
      const other = sampleAdmin();
      await admins.insert(admin);
      await admins.insert(other);
      const changed = {
        ...admin,
        email: 'new@example.com',
        passwordHash: 'new-hash',
        updated: new Date('2027-01-01T00:00:00.000Z'),
        keyFileStamp: '1:2:3:4',
      };
      expect(await admins.update(changed)).toEqual(changed);
      expect(await admins.findById(admin.id)).toEqual(changed);
      await expect(admins.update({ ...other, email: 'new@example.com' })).rejects.toBeInstanceOf(EmailTakenError);
      await expect(admins.insert(sampleAdmin({ email: other.email }))).rejects.toBeInstanceOf(EmailTakenError);
    });

    it('update() with endSessions ends every live session of the admin at its update time; without, none', async () => {
      const admin = sampleAdmin();
      await admins.insert(admin);
      const [first, second] = [await sessionOf(admin), await sessionOf(admin)];
      const renamed = { ...admin, name: 'Renamed', updated: new Date('2027-01-01T00:00:00.000Z') };
      await admins.update(renamed);
      expect((await sessions.findSession(first))?.revoked).toBeNull();
      const reset = { ...renamed, passwordHash: 'new-hash', updated: new Date('2027-02-01T00:00:00.000Z') };
      expect(await admins.update(reset, { endSessions: true })).toEqual(reset);
      for (const id of [first, second]) expect((await sessions.findSession(id))?.revoked).toEqual(reset.updated);
    });
  });
}
