import { describe, expect, it } from './test-api.ts';
import { EmailTakenError, LastOwnerError } from '../shared/errors.ts';
import type { Admin } from '../admins/admin.ts';
import type { AdminRepository } from '../admins/admin.repository.ts';
import type { AdminRole } from '../admins/admin-roles.ts';
import { auditRecord } from '../audit/audit-records.ts';
import { SYSTEM } from '../audit/audit-event.ts';
import type { Repositories } from '../repositories.ts';
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
    let repositories: Repositories;
    let another: Repositories;
    useFreshRepositories(open, (opened, second) => {
      repositories = opened;
      another = second;
      admins = opened.admins;
      sessions = opened.sessions;
    });

    const AT = new Date('2027-03-01T00:00:00.000Z');
    let events = 0;
    const event = (action: 'admin.role_changed' | 'admin.removed', id: string) => {
      events += 1;
      const eventId = `21000000-0000-4000-8000-${events.toString(16).padStart(12, '0')}`;
      return auditRecord(eventId, AT, SYSTEM, action, { type: 'admins', id });
    };
    /** A change to `role`, recorded. */
    const toRole = (role: AdminRole) => (current: Admin) => ({
      admin: { ...current, role, updated: AT },
      audit: event('admin.role_changed', current.id),
    });
    const owners = async () => (await admins.list()).filter((admin) => admin.role === 'owner').length;
    /** The events recorded, newest first. */
    const actions = async () => (await repositories.audit.list({ page: 1, size: 100 })).events.map((e) => e.action);

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

    it('list() answers every admin, earliest first', async () => {
      const later = sampleAdmin();
      const earlier = sampleAdmin({ created: new Date('2020-01-01T00:00:00.000Z') });
      await admins.insert(later);
      await admins.insert(earlier);
      expect(await admins.list()).toEqual([earlier, later]);
    });

    it('change() stores what the change makes of the admin, with its event; null for an unknown id', async () => {
      const owner = sampleAdmin();
      const other = sampleAdmin({ role: 'support' });
      await admins.insert(owner);
      await admins.insert(other);
      const changed = await admins.change(other.id, toRole('auditor'));
      expect(changed).toEqual({ ...other, role: 'auditor', updated: AT });
      expect(await admins.findById(other.id)).toEqual(changed);
      expect(await actions()).toEqual(['admin.role_changed']);
      expect(await admins.change(sampleAdmin().id, toRole('admin'))).toBeNull();
    });

    it('change() refuses to demote the only owner with LastOwnerError, and writes nothing; another owner may be', async () => {
      const first = sampleAdmin();
      const second = sampleAdmin({ role: 'admin' });
      await admins.insert(first);
      await admins.insert(second);
      await expect(admins.change(first.id, toRole('admin'))).rejects.toBeInstanceOf(LastOwnerError);
      expect(await admins.findById(first.id)).toEqual(first);
      expect(await actions()).toEqual([]);
      await admins.change(second.id, toRole('owner'));
      expect((await admins.change(first.id, toRole('support')))?.role).toBe('support');
      expect(await owners()).toBe(1);
    });

    it('remove() deletes the admin, ends its sessions and records the event; null for an unknown id', async () => {
      const owner = sampleAdmin();
      const removed = sampleAdmin({ role: 'support' });
      await admins.insert(owner);
      await admins.insert(removed);
      const session = await sessionOf(removed);
      const kept = await sessionOf(owner);
      expect(await admins.remove(removed.id, AT, (admin) => event('admin.removed', admin.id))).toEqual(removed);
      expect(await admins.findById(removed.id)).toBeNull();
      expect((await sessions.findSession(session))?.revoked).toEqual(AT);
      expect((await sessions.findSession(kept))?.revoked).toBeNull();
      expect(await actions()).toEqual(['admin.removed']);
      expect(await admins.remove(removed.id, AT, (admin) => event('admin.removed', admin.id))).toBeNull();
    });

    it('remove() refuses the only owner with LastOwnerError and writes nothing; one of two owners may go', async () => {
      const [first, second] = [sampleAdmin(), sampleAdmin()];
      await admins.insert(first);
      await admins.insert(second);
      expect(await admins.remove(second.id, AT, (admin) => event('admin.removed', admin.id))).toEqual(second);
      await expect(admins.remove(first.id, AT, (admin) => event('admin.removed', admin.id))).rejects.toBeInstanceOf(
        LastOwnerError,
      );
      expect(await admins.findById(first.id)).toEqual(first);
      expect(await actions()).toEqual(['admin.removed']);
    });

    it('two owners demoting each other at once, through two instances: exactly one wins, an owner remains (10 rounds)', async () => {
      const [first, second] = [sampleAdmin(), sampleAdmin()];
      await admins.insert(first);
      await admins.insert(second);
      for (let round = 0; round < 10; round += 1) {
        const outcomes = await Promise.allSettled([
          admins.change(first.id, toRole('admin')),
          another.admins.change(second.id, toRole('admin')),
        ]);
        const refused = outcomes.filter((outcome) => outcome.status === 'rejected');
        expect(refused).toHaveLength(1);
        expect((refused[0] as PromiseRejectedResult).reason).toBeInstanceOf(LastOwnerError);
        expect(await owners()).toBe(1);
        for (const admin of [first, second]) await admins.change(admin.id, toRole('owner'));
      }
    });

    it('an owner removed while the other is demoted, through two instances: an owner always remains (10 rounds)', async () => {
      const keep = sampleAdmin();
      await admins.insert(keep);
      for (let round = 0; round < 10; round += 1) {
        const gone = sampleAdmin();
        await admins.insert(gone);
        await Promise.allSettled([
          admins.change(keep.id, toRole('admin')),
          another.admins.remove(gone.id, AT, (admin) => event('admin.removed', admin.id)),
        ]);
        expect(await owners()).toBe(1);
        const left = (await admins.list()).find((admin) => admin.role === 'owner')!;
        if (left.id === gone.id) await admins.change(keep.id, toRole('owner'));
        if (await admins.findById(gone.id))
          await admins.remove(gone.id, AT, (admin) => event('admin.removed', admin.id));
      }
    });
  });
}
