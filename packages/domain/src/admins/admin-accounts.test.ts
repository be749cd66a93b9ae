import { beforeEach, describe, expect, it } from '../testing/test-api.ts';
import {
  ADDRESS,
  ADMIN,
  buildDomain,
  issueSources,
  PUBLIC_URL,
  pointerTo,
  type Domain,
} from '../testing/domain-fixture.ts';
import type { Initiator } from '../audit/audit-event.ts';
import {
  EmailTakenError,
  ForbiddenError,
  InvalidActionTokenError,
  LastOwnerError,
  NotFoundError,
  ValidationError,
} from '../shared/errors.ts';
import type { Admin } from './admin.ts';
import { ADMIN_INVITATION_LIFETIME_SECONDS } from './admin-invitation.ts';
import type { AdminRole } from './admin-roles.ts';

const PASSWORD = 'invited-admin-password';

describe('AdminAccounts', () => {
  let domain: Domain;
  let owner: Admin;
  let byOwner: Initiator;
  beforeEach(async () => {
    domain = buildDomain();
    owner = await domain.admins.applyCredentials(ADMIN);
    byOwner = {
      actor: { type: 'admin', id: owner.id },
      request: { requestId: 'r', clientAddress: null, userAgent: null },
    };
  });

  const actions = async () => (await domain.repositories.audit.list({ page: 1, size: 100 })).events;

  /** Invites `email` with `role` and accepts the mailed link: the new admin. */
  async function joined(email: string, role: AdminRole): Promise<Admin> {
    await domain.adminAccounts.invite({ email, role }, byOwner);
    return domain.adminAccounts.accept(await domain.mailedToken('admin_invitation', email), PASSWORD);
  }

  it('invite() mails a link to the admin-invitation page, valid 48 hours, and records admin.invited by the owner', async () => {
    const invitation = await domain.adminAccounts.invite(
      { email: ' Ann@Example.com ', name: 'Ann', role: 'support' },
      byOwner,
    );
    expect(invitation).toMatchObject({ email: 'ann@example.com', name: 'Ann', role: 'support', invitedBy: owner.id });
    expect(invitation.expires.getTime() - invitation.created.getTime()).toBe(ADMIN_INVITATION_LIFETIME_SECONDS * 1000);
    const [text] = await domain.mailTexts('admin_invitation', 'ann@example.com');
    expect(text).toContain(`${PUBLIC_URL}account/admin-invitation?token=`);
    expect(text).toContain('support');
    const [event] = await actions();
    expect(event).toMatchObject({ action: 'admin.invited', actor: { type: 'admin', id: owner.id } });
    expect(await domain.adminAccounts.pendingInvitations()).toEqual([invitation]);
  });

  it('invite() refuses an admin’s address (EmailTakenError) and bad input (one ValidationError)', async () => {
    await expect(domain.adminAccounts.invite({ email: ADMIN.email, role: 'admin' }, byOwner)).rejects.toBeInstanceOf(
      EmailTakenError,
    );
    const sources = await issueSources(
      domain.adminAccounts.invite({ email: 'nope', role: 'root' as AdminRole }, byOwner),
    );
    expect(sources).toEqual([pointerTo('email'), pointerTo('role')]);
  });

  it('accept() makes the admin with the invited address and role, who can log in; the link works once', async () => {
    const invitation = await domain.adminAccounts.invite(
      { email: 'ann@example.com', name: 'Ann', role: 'auditor' },
      byOwner,
    );
    const token = await domain.mailedToken('admin_invitation', 'ann@example.com');
    const admin = await domain.adminAccounts.accept(token, PASSWORD);
    expect(admin).toMatchObject({ email: 'ann@example.com', name: 'Ann', role: 'auditor', keyFileStamp: null });
    await expect(domain.adminLogin('ann@example.com', PASSWORD, ADDRESS)).resolves.toBeDefined();
    await expect(domain.adminAccounts.accept(token, PASSWORD)).rejects.toBeInstanceOf(InvalidActionTokenError);
    expect((await actions()).find((event) => event.action === 'admin.joined')).toMatchObject({
      actor: { type: 'admin', id: admin.id },
      target: { type: 'admins', id: admin.id },
      changes: {
        email: { before: null, after: 'ann@example.com' },
        role: { before: null, after: 'auditor' },
        invitation: { before: invitation.id, after: null },
      },
    });
    expect(await domain.adminAccounts.pendingInvitations()).toEqual([]);
  });

  it('accept() checks the password first (the link stays usable), and refuses an expired or withdrawn link alike; a withdrawal is recorded', async () => {
    const invitation = await domain.adminAccounts.invite({ email: 'ann@example.com', role: 'admin' }, byOwner);
    const token = await domain.mailedToken('admin_invitation', 'ann@example.com');
    await expect(domain.adminAccounts.accept(token, 'short')).rejects.toBeInstanceOf(ValidationError);
    await expect(domain.adminAccounts.accept('not a token', PASSWORD)).rejects.toBeInstanceOf(InvalidActionTokenError);
    domain.clock.advance(ADMIN_INVITATION_LIFETIME_SECONDS);
    await expect(domain.adminAccounts.accept(token, PASSWORD)).rejects.toBeInstanceOf(InvalidActionTokenError);
    await expect(domain.adminAccounts.withdraw(invitation.id)).rejects.toBeInstanceOf(NotFoundError);

    await domain.adminAccounts.invite({ email: 'bob@example.com', role: 'admin' }, byOwner);
    const [pending] = await domain.adminAccounts.pendingInvitations();
    await domain.adminAccounts.withdraw(pending!.id, byOwner);
    expect((await actions())[0]).toMatchObject({
      action: 'admin.invitation_withdrawn',
      actor: { type: 'admin', id: owner.id },
      target: { type: 'admin-invitations', id: pending!.id },
      changes: { email: { before: 'bob@example.com', after: null }, role: { before: 'admin', after: null } },
    });
    await expect(
      domain.adminAccounts.accept(await domain.mailedToken('admin_invitation', 'bob@example.com'), PASSWORD),
    ).rejects.toBeInstanceOf(InvalidActionTokenError);
  });

  it('change() sets a role and records admin.role_changed; the last owner cannot be demoted', async () => {
    const ann = await joined('ann@example.com', 'support');
    expect((await domain.adminAccounts.change(ann.id, { role: 'owner' }, byOwner)).role).toBe('owner');
    expect((await actions())[0]).toMatchObject({
      action: 'admin.role_changed',
      actor: { type: 'admin', id: owner.id },
      target: { type: 'admins', id: ann.id },
      changes: { role: { before: 'support', after: 'owner' } },
    });
    expect((await domain.adminAccounts.change(owner.id, { role: 'admin' }, byOwner)).role).toBe('admin');
    await expect(domain.adminAccounts.change(ann.id, { role: 'auditor' }, byOwner)).rejects.toBeInstanceOf(
      LastOwnerError,
    );
    await expect(domain.adminAccounts.change(ann.id, { role: 'x' as AdminRole })).rejects.toBeInstanceOf(
      ValidationError,
    );
    await expect(
      domain.adminAccounts.change('99999999-0000-4000-8000-000000000009', { role: 'admin' }),
    ).rejects.toBeInstanceOf(NotFoundError);
  });

  it("remove() deletes an admin and ends their sessions; the last owner and the key file's admin stay", async () => {
    const ann = await joined('ann@example.com', 'owner');
    const { grant } = await domain.logIn(domain.adminAuth, 'ann@example.com', PASSWORD);
    await expect(domain.adminAccounts.remove(owner.id, byOwner)).rejects.toBeInstanceOf(ForbiddenError);
    await domain.adminAccounts.remove(ann.id, byOwner);
    expect(await domain.isOpen(grant.accessToken, domain.adminAuth)).toBe(false);
    expect(await domain.repositories.admins.findById(ann.id)).toBeNull();
    expect((await actions())[0]).toMatchObject({ action: 'admin.removed', actor: { type: 'admin', id: owner.id } });
    await expect(domain.adminAccounts.remove(ann.id, byOwner)).rejects.toBeInstanceOf(NotFoundError);

    // An owner may remove themselves while another owner remains; the last may not.
    const bob = await joined('bob@example.com', 'owner');
    await domain.adminAccounts.change(owner.id, { role: 'admin' }, byOwner);
    await expect(
      domain.adminAccounts.remove(bob.id, { ...byOwner, actor: { type: 'admin', id: bob.id } }),
    ).rejects.toBeInstanceOf(LastOwnerError);
  });

  it("the key file's admin is an owner again at the next start, its sessions kept", async () => {
    await joined('ann@example.com', 'owner');
    await domain.adminAccounts.change(owner.id, { role: 'support' }, byOwner);
    const { grant } = await domain.logIn(domain.adminAuth, ADMIN.email, ADMIN.password);
    expect((await domain.admins.applyCredentials(ADMIN, 'file-1')).role).toBe('owner');
    await domain.adminAccounts.change(owner.id, { role: 'auditor' }, byOwner);
    expect((await domain.admins.applyCredentials(ADMIN, 'file-1')).role).toBe('owner');
    expect((await domain.repositories.admins.findById(owner.id))?.role).toBe('owner');
    expect(await domain.isOpen(grant.accessToken, domain.adminAuth)).toBe(true);
  });
});
