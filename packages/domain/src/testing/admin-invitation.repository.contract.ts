import { describe, expect, it } from './test-api.ts';
import type { Admin } from '../admins/admin.ts';
import type { AdminInvitation, StoredAdminInvitation } from '../admins/admin-invitation.ts';
import { auditRecord } from '../audit/audit-records.ts';
import { SYSTEM } from '../audit/audit-event.ts';
import type { Repositories } from '../repositories.ts';
import { EmailTakenError } from '../shared/errors.ts';
import { sampleAdmin } from './admin.repository.contract.ts';
import { useFreshRepositories, type OpenRepositories } from './contract-harness.ts';
import { sampleMail } from './mail-queue.contract.ts';

const T0 = new Date('2027-05-01T10:00:00.000Z');
const HOUR = 3600_000;
const later = (hours: number) => new Date(T0.getTime() + hours * HOUR);

let made = 0;
const nextId = (prefix: string) => {
  made += 1;
  return `${prefix}-0000-4000-8000-${made.toString(16).padStart(12, '0')}`;
};

function sampleInvitation(overrides: Partial<StoredAdminInvitation> = {}): StoredAdminInvitation {
  const id = nextId('22000000');
  return {
    id,
    email: `invitee-${made}@example.com`,
    name: 'Invitee',
    role: 'support',
    invitedBy: null,
    created: T0,
    expires: later(48),
    used: null,
    digest: `digest-${id}`,
    ...overrides,
  };
}

const invited = (id: string) =>
  auditRecord(nextId('22100000'), T0, SYSTEM, 'admin.invited', { type: 'admin-invitations', id });
const listed = ({ digest: _digest, ...invitation }: StoredAdminInvitation): AdminInvitation => invitation;

/** The behaviour every AdminInvitationRepository promises. */
export function describeAdminInvitationRepositoryContract(backend: string, open: OpenRepositories): void {
  describe(`AdminInvitationRepository contract (${backend})`, () => {
    let repositories: Repositories;
    let another: Repositories;
    useFreshRepositories(open, (opened, second) => {
      repositories = opened;
      another = second;
    });

    const create = async (invitation: StoredAdminInvitation) =>
      repositories.adminInvitations.create(invitation, sampleMail(made + 900), invited(invitation.id));
    /** What accepting makes: an admin with the invitation's address and role, and its event. */
    const join = (invitation: AdminInvitation) => {
      const admin: Admin = sampleAdmin({ email: invitation.email, role: invitation.role, created: later(1) });
      const audit = auditRecord(nextId('22200000'), later(1), SYSTEM, 'admin.joined', { type: 'admins', id: admin.id });
      return { admin, audit };
    };
    /** The events recorded, newest first. */
    const actions = async () => (await repositories.audit.list({ page: 1, size: 100 })).events.map((e) => e.action);

    it('stores an invitation with its message and event, and lists it while pending', async () => {
      const invitation = sampleInvitation();
      const mail = sampleMail(made + 900);
      await repositories.adminInvitations.create(invitation, mail, invited(invitation.id));
      expect(await repositories.mail.findById(mail.id)).not.toBeNull();
      expect(await actions()).toEqual(['admin.invited']);
      expect(await repositories.adminInvitations.listPending(later(1))).toEqual([listed(invitation)]);
      expect(await repositories.adminInvitations.listPending(later(48))).toEqual([]);
    });

    it('refuses an address an admin has with EmailTakenError, storing nothing', async () => {
      const admin = sampleAdmin();
      await repositories.admins.insert(admin);
      await expect(create(sampleInvitation({ email: admin.email }))).rejects.toBeInstanceOf(EmailTakenError);
      expect(await repositories.adminInvitations.listPending(T0)).toEqual([]);
      expect(await actions()).toEqual([]);
    });

    it("a new invitation of an address withdraws the address's pending one", async () => {
      const first = sampleInvitation({ email: 'same@example.com' });
      const second = sampleInvitation({ email: 'same@example.com', created: later(1) });
      await create(first);
      await create(second);
      expect(await repositories.adminInvitations.listPending(later(2))).toEqual([listed(second)]);
      expect(await repositories.adminInvitations.accept([first.digest], later(2), join)).toBeNull();
    });

    it('lists pending invitations oldest first', async () => {
      const newer = sampleInvitation({ created: later(2) });
      const older = sampleInvitation({ created: later(1) });
      await create(newer);
      await create(older);
      expect((await repositories.adminInvitations.listPending(later(3))).map(({ id }) => id)).toEqual([
        older.id,
        newer.id,
      ]);
    });

    it('withdraw() ends a pending invitation once, with its event; its link stops working', async () => {
      const invitation = sampleInvitation();
      await create(invitation);
      const seen: AdminInvitation[] = [];
      const withdrawn = (pending: AdminInvitation) => {
        seen.push(pending);
        return auditRecord(nextId('22300000'), later(1), SYSTEM, 'admin.invitation_withdrawn', {
          type: 'admin-invitations',
          id: pending.id,
        });
      };
      expect(await repositories.adminInvitations.withdraw(invitation.id, later(1), withdrawn)).toEqual({
        ...listed(invitation),
        used: later(1),
      });
      expect(seen).toEqual([listed(invitation)]);
      expect(await actions()).toEqual(['admin.invitation_withdrawn', 'admin.invited']);
      expect(await repositories.adminInvitations.withdraw(invitation.id, later(1), withdrawn)).toBeNull();
      expect(await actions()).toHaveLength(2);
      expect(await repositories.adminInvitations.listPending(later(1))).toEqual([]);
      expect(await repositories.adminInvitations.accept([invitation.digest], later(1), join)).toBeNull();
    });

    it('accept() makes the admin with the event, once; a wrong digest or an expired invitation makes none', async () => {
      const invitation = sampleInvitation();
      await create(invitation);
      expect(await repositories.adminInvitations.accept(['wrong'], later(1), join)).toBeNull();
      expect(await repositories.adminInvitations.accept([], later(1), join)).toBeNull();
      const admin = await repositories.adminInvitations.accept(['wrong', invitation.digest], later(1), join);
      expect(admin).toMatchObject({ email: invitation.email, role: 'support' });
      expect(await repositories.admins.findById(admin!.id)).toEqual(admin);
      expect(await actions()).toEqual(['admin.joined', 'admin.invited']);
      expect(await repositories.adminInvitations.accept([invitation.digest], later(1), join)).toBeNull();
      expect(await repositories.adminInvitations.listPending(later(1))).toEqual([]);

      const expired = sampleInvitation();
      await create(expired);
      expect(await repositories.adminInvitations.accept([expired.digest], later(48), join)).toBeNull();
    });

    it('accept() refuses an address an admin took meanwhile with EmailTakenError, and the link stays usable', async () => {
      const invitation = sampleInvitation();
      await create(invitation);
      const taker = sampleAdmin({ email: invitation.email });
      await repositories.admins.insert(taker);
      await expect(repositories.adminInvitations.accept([invitation.digest], later(1), join)).rejects.toBeInstanceOf(
        EmailTakenError,
      );
      expect(await repositories.adminInvitations.listPending(later(1))).toEqual([listed(invitation)]);
    });

    it('one invitation accepted through two instances at once makes exactly one admin (10 rounds)', async () => {
      for (let round = 0; round < 10; round += 1) {
        const invitation = sampleInvitation();
        await create(invitation);
        const outcomes = await Promise.all([
          repositories.adminInvitations.accept([invitation.digest], later(1), join),
          another.adminInvitations.accept([invitation.digest], later(1), join),
        ]);
        expect(outcomes.filter((admin) => admin !== null)).toHaveLength(1);
        expect((await repositories.admins.list()).filter((admin) => admin.email === invitation.email)).toHaveLength(1);
      }
    });
  });
}
