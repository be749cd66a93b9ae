import { accountPageLink, ADMIN_INVITATION_PAGE } from '../account-pages/account-link.ts';
import type { ActionTokenService } from '../action-tokens/action-token-service.ts';
import type { TokenKeys } from '../action-tokens/token-keys.ts';
import { auditRecord } from '../audit/audit-records.ts';
import { NO_REQUEST, SYSTEM, type AuditAction, type Initiator, type RequestContext } from '../audit/audit-event.ts';
import type { AccountMail } from '../mail/account-mail.ts';
import { addSeconds, type Clock } from '../shared/clock.ts';
import {
  EmailTakenError,
  ForbiddenError,
  InvalidActionTokenError,
  NotFoundError,
  ValidationError,
  type ValidationIssue,
} from '../shared/errors.ts';
import type { IdGenerator } from '../shared/id-generator.ts';
import type { PasswordHasher } from '../shared/password-hasher.ts';
import { normalizeEmail, passwordProblem, userAttributeIssues } from '../users/user.rules.ts';
import type { Admin } from './admin.ts';
import type { AdminRepository } from './admin.repository.ts';
import {
  ADMIN_INVITATION_LIFETIME_SECONDS,
  type AdminInvitation,
  type AdminPatch,
  type NewAdminInvitation,
  type StoredAdminInvitation,
} from './admin-invitation.ts';
import type { AdminInvitationRepository } from './admin-invitation.repository.ts';
import { ADMIN_ROLES, isAdminRole } from './admin-roles.ts';

export interface AdminAccountsDeps {
  admins: AdminRepository;
  invitations: AdminInvitationRepository;
  /** Makes the invitation's token and the digest it is stored under, as every single-use token. */
  keys: TokenKeys;
  /** Looks a presented token up by its digests, as every single-use token is. */
  actionTokens: ActionTokenService;
  /** The invitation passes it as an admin's message (`byAdmin`): counted, never dropped. */
  accountMail: AccountMail;
  hasher: PasswordHasher;
  clock: Clock;
  ids: IdGenerator;
  /** The service's public base address, which the mailed link is built on (PUBLIC_URL). */
  publicUrl: string;
}

const pointer = (name: string) => ({ pointer: `/data/attributes/${name}` });
const roleIssue = (role: unknown): ValidationIssue[] =>
  isAdminRole(role) ? [] : [{ source: pointer('role'), detail: `role must be one of ${ADMIN_ROLES.join(', ')}` }];

/**
 * The administrators' accounts as owners manage them: invitations by email, roles, removal.
 * There is always an owner: the store refuses to demote or remove the last one (LastOwnerError).
 * The key file's admin (the earliest) cannot be removed here (its account is the file's), and
 * gets the role `owner` back at every start (AdminService.applyCredentials).
 */
export class AdminAccounts {
  constructor(private readonly deps: AdminAccountsDeps) {}

  list(): Promise<Admin[]> {
    return this.deps.admins.list();
  }

  async find(id: string): Promise<Admin> {
    const admin = await this.deps.admins.findById(id);
    if (!admin) throw new NotFoundError('admin');
    return admin;
  }

  /**
   * Invites an address with a role: the invitation and its message in one write; the address's
   * earlier pending invitation stops working. EmailTakenError when an admin has the address.
   */
  async invite(input: NewAdminInvitation, by: Initiator = SYSTEM): Promise<AdminInvitation> {
    const issues: ValidationIssue[] = [
      ...(input.email === undefined ? [{ source: pointer('email'), detail: 'email is required' }] : []),
      ...userAttributeIssues({ email: input.email, name: input.name }),
      ...roleIssue(input.role),
    ];
    if (issues.length > 0) throw new ValidationError(issues);
    const { admins, invitations, keys, accountMail, clock, ids, publicUrl } = this.deps;
    const email = normalizeEmail(input.email);
    // Said before a message is made; the store checks again in its transaction.
    if (await admins.findByEmail(email)) throw new EmailTakenError();
    const now = clock.now();
    const token = keys.generate();
    const invitation: StoredAdminInvitation = {
      id: ids.next(),
      email,
      name: input.name ?? '',
      role: input.role,
      invitedBy: by.actor.type === 'admin' ? by.actor.id : null,
      created: now,
      expires: addSeconds(now, ADMIN_INVITATION_LIFETIME_SECONDS),
      used: null,
      digest: await keys.digest(token),
    };
    // Never null for an admin's message (see AdmitOptions.byAdmin).
    const compose = (await accountMail.admit('admin_invitation', email, { byAdmin: true }))!;
    const mail = await compose({
      email,
      name: invitation.name || email,
      role: invitation.role,
      link: accountPageLink(publicUrl, ADMIN_INVITATION_PAGE, token),
    });
    const audit = this.record(by, 'admin.invited', { type: 'admin-invitations', id: invitation.id }, now, {
      email: { before: null, after: email },
      role: { before: null, after: invitation.role },
    });
    await invitations.create(invitation, mail, audit);
    const { digest: _digest, ...listed } = invitation;
    return listed;
  }

  pendingInvitations(): Promise<AdminInvitation[]> {
    return this.deps.invitations.listPending(this.deps.clock.now());
  }

  /** Withdraws a pending invitation, recorded: its link stops working. NotFoundError unless pending. */
  async withdraw(id: string, by: Initiator = SYSTEM): Promise<void> {
    const now = this.deps.clock.now();
    const withdrawn = await this.deps.invitations.withdraw(id, now, (invitation) =>
      this.record(by, 'admin.invitation_withdrawn', { type: 'admin-invitations', id }, now, {
        email: { before: invitation.email, after: null },
        role: { before: invitation.role, after: null },
      }),
    );
    if (!withdrawn) throw new NotFoundError('invitation');
  }

  /**
   * The invitee sets a password and becomes an admin with the invitation's address and role. The
   * password is checked first (a refused one leaves the link usable). InvalidActionTokenError for
   * a wrong, used, withdrawn or expired link alike; EmailTakenError when an admin has taken the
   * address since.
   */
  async accept(token: unknown, password: unknown, request: RequestContext = NO_REQUEST): Promise<Admin> {
    const problem = typeof password === 'string' ? passwordProblem(password) : 'password must be a string';
    if (problem !== null) throw new ValidationError([{ source: { pointer: '/password' }, detail: problem }]);
    const { invitations, actionTokens, hasher, clock, ids } = this.deps;
    // Hashing is slow: done before the write, and for every token, so a wrong one takes as long.
    const passwordHash = await hasher.hash(password as string);
    const digests = await actionTokens.digestsOf(token);
    const now = clock.now();
    const admin = await invitations.accept(digests, now, (invitation) => {
      const joined: Admin = {
        id: ids.next(),
        name: invitation.name || invitation.email,
        email: invitation.email,
        passwordHash,
        role: invitation.role,
        created: now,
        updated: now,
        keyFileStamp: null,
      };
      const by: Initiator = { actor: { type: 'admin', id: joined.id }, request };
      // The account comes into being; the pending invitation it used is pending no more.
      const audit = this.record(by, 'admin.joined', { type: 'admins', id: joined.id }, now, {
        email: { before: null, after: joined.email },
        role: { before: null, after: joined.role },
        invitation: { before: invitation.id, after: null },
      });
      return { admin: joined, audit };
    });
    if (!admin) throw new InvalidActionTokenError();
    return admin;
  }

  /**
   * Changes another admin's role or name. LastOwnerError when it would leave no owner. The key
   * file's admin may be demoted (another owner must remain), and is an owner again at the next start.
   */
  async change(id: string, patch: AdminPatch, by: Initiator = SYSTEM): Promise<Admin> {
    const issues: ValidationIssue[] = [
      ...(patch.role === undefined ? [] : roleIssue(patch.role)),
      ...(patch.name === undefined ? [] : userAttributeIssues({ name: patch.name })),
    ];
    if (issues.length > 0) throw new ValidationError(issues);
    const now = this.deps.clock.now();
    const changed = await this.deps.admins.change(id, (current) => {
      const admin: Admin = { ...current, ...patch, updated: now };
      const roleChanged = admin.role !== current.role;
      const audit = roleChanged
        ? this.record(by, 'admin.role_changed', { type: 'admins', id }, now, {
            role: { before: current.role, after: admin.role },
          })
        : null;
      return { admin: roleChanged || admin.name !== current.name ? admin : current, audit };
    });
    if (!changed) throw new NotFoundError('admin');
    return changed;
  }

  /**
   * Removes an admin and ends their sessions. An owner may remove themselves unless they are
   * the last owner (LastOwnerError). The key file's admin is refused (403): its account is the
   * file's, and it would come back at the next start with another admin's place.
   */
  async remove(id: string, by: Initiator = SYSTEM): Promise<void> {
    const { admins, clock } = this.deps;
    if ((await admins.findFirst())?.id === id) {
      throw new ForbiddenError("The key file's administrator cannot be removed: edit ADMIN_KEY_PATH's file instead.");
    }
    const now = clock.now();
    const removed = await admins.remove(id, now, (admin) =>
      this.record(by, 'admin.removed', { type: 'admins', id }, now, {
        email: { before: admin.email, after: null },
        role: { before: admin.role, after: null },
      }),
    );
    if (!removed) throw new NotFoundError('admin');
  }

  private record(
    by: Initiator,
    action: AuditAction,
    target: { type: string; id: string },
    time: Date,
    changes: Parameters<typeof auditRecord>[5],
  ) {
    return auditRecord(this.deps.ids.next(), time, by, action, target, changes);
  }
}
