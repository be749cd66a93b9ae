import { accountLink } from '../account-pages/account-link.ts';
import type { ActionTokenService } from '../action-tokens/action-token-service.ts';
import { auditRecord, userChanges } from '../audit/audit-records.ts';
import {
  NO_REQUEST,
  SYSTEM,
  type AuditAction,
  type AuditChanges,
  type AuditTarget,
  type Initiator,
  type RequestContext,
} from '../audit/audit-event.ts';
import type { AccountMail } from '../mail/account-mail.ts';
import type { Clock } from '../shared/clock.ts';
import { InvalidActionTokenError, NotFoundError, ValidationError, type ValidationIssue } from '../shared/errors.ts';
import type { IdGenerator } from '../shared/id-generator.ts';
import type { PasswordHasher } from '../shared/password-hasher.ts';
import { NO_PASSWORD_HASH } from '../users/password-match.ts';
import { applyUserPatch, normalizeEmail, passwordProblem, userAttributeIssues } from '../users/user.rules.ts';
import type { User } from '../users/user.ts';
import type { Invitation, InvitationPage, ListedInvitation, NewInvitation } from './invitation.ts';
import type { InvitationRepository } from './invitation.repository.ts';
import { freshUser } from '../users/fresh-user.ts';

export interface InvitationServiceDeps {
  invitations: InvitationRepository;
  tokens: ActionTokenService;
  /** The send limits' door: an invitation passes it as an admin's message (never dropped, counted). */
  accountMail: AccountMail;
  hasher: PasswordHasher;
  clock: Clock;
  ids: IdGenerator;
  /** The service's public base address, which the mailed link is built on (PUBLIC_URL). */
  publicUrl: string;
}

/** How often a resend tries again when the invitee's address changed while its message was made. */
const RESEND_TRIES = 3;

const invitationTarget = (id: string): AuditTarget => ({ type: 'invitations', id });

/**
 * Invitations: an admin makes an account for an address, which stays closed (no password, so a
 * login is refused as a wrong password is, in the same time) until the invitee sets a password
 * through the mailed link.
 *
 * Its messages go through AccountMail as an admin's (`byAdmin`): counted against the hourly
 * budget, never dropped by the per-address limit, which keeps strangers from mailing an address
 * through the public endpoints. An admin chose the address, and an invitation whose message was
 * dropped (a resend within a minute, say) would leave its user with no link to get in.
 */
export class InvitationService {
  constructor(private readonly deps: InvitationServiceDeps) {}

  /** Makes the user, the invitation and its message in one write; EmailTakenError for a known address. */
  async invite(input: NewInvitation, by: Initiator = SYSTEM): Promise<ListedInvitation> {
    const issues: ValidationIssue[] = [
      ...(input.email === undefined
        ? [{ source: { pointer: '/data/attributes/email' }, detail: 'email is required' }]
        : []),
      ...userAttributeIssues({ email: input.email, name: input.name, metadata: input.metadata, app: input.app }),
    ];
    if (issues.length > 0) throw new ValidationError(issues);
    const { clock, ids } = this.deps;
    const now = clock.now();
    const user = freshUser(
      {
        id: ids.next(),
        name: input.name ?? '',
        email: normalizeEmail(input.email),
        passwordHash: NO_PASSWORD_HASH,
        metadata: input.metadata ?? {},
        app: input.app ?? {},
        emailVerified: null,
      },
      now,
    );
    const { token, mail } = await this.prepare(user);
    const invitation: Invitation = {
      id: ids.next(),
      userId: user.id,
      invitedBy: by.actor.type === 'admin' ? by.actor.id : null,
      created: now,
      sent: now,
      expires: token.expires,
      accepted: null,
    };
    const changes = { ...userChanges(null, user), user: { before: null, after: user.id } };
    const audit = this.record(by, 'invitation.created', invitation.id, changes, now);
    await this.deps.invitations.create({ user, invitation, token, mail, audit });
    return { ...invitation, email: user.email, name: user.name };
  }

  list(query: { page: number; size: number }): Promise<InvitationPage> {
    return this.deps.invitations.listPending(query);
  }

  /** A new link to the invitee; the one sent before stops working. NotFoundError unless pending. */
  async resend(id: string, by: Initiator = SYSTEM): Promise<ListedInvitation> {
    for (let attempt = 0; attempt < RESEND_TRIES; attempt += 1) {
      const pending = await this.deps.invitations.findPending(id);
      if (!pending) break;
      const { token, mail } = await this.prepare({ id: pending.userId, email: pending.email, name: pending.name });
      const audit = this.record(by, 'invitation.resent', id, {
        user: { before: pending.userId, after: pending.userId },
      });
      // Null when it was accepted or revoked meanwhile (then gone for good), or its address changed.
      const resent = await this.deps.invitations.resend(id, { token, mail, audit });
      if (resent) return resent;
    }
    throw new NotFoundError('invitation');
  }

  /** Revokes a pending invitation: it goes, with its user if no password was set. NotFoundError unless pending. */
  async revoke(id: string, by: Initiator = SYSTEM): Promise<void> {
    const now = this.deps.clock.now();
    const revoked = await this.deps.invitations.revoke(id, now, (pending, userRemoved) =>
      this.record(
        by,
        'invitation.revoked',
        id,
        { user: { before: pending.userId, after: userRemoved ? null : pending.userId } },
        now,
      ),
    );
    if (!revoked) throw new NotFoundError('invitation');
  }

  /**
   * The invitee sets a password through the mailed link: the password is checked first (a refused
   * one leaves the token usable), then the token is used, the address marked verified and the
   * invitation accepted, in one write. InvalidActionTokenError for a wrong, used, expired or
   * revoked invitation's token alike.
   */
  async accept(token: unknown, password: unknown, request: RequestContext = NO_REQUEST): Promise<void> {
    const problem = typeof password === 'string' ? passwordProblem(password) : 'password must be a string';
    if (problem !== null) throw new ValidationError([{ source: { pointer: '/password' }, detail: problem }]);
    const { tokens, invitations, hasher, clock } = this.deps;
    // Hashing is slow: done before the write, and for every token, so a wrong one takes as long.
    const passwordHash = await hasher.hash(password as string);
    const now = clock.now();
    const accepted = await invitations.accept(await tokens.digestsOf(token), now, (current, invitation) => {
      const user = applyUserPatch(current, { passwordHash, emailVerified: true }, now);
      const by: Initiator = { actor: { type: 'user', id: user.id }, request };
      const changes = { ...userChanges(current, user), user: { before: user.id, after: user.id } };
      return { user, audit: this.record(by, 'invitation.accepted', invitation.id, changes, now) };
    });
    if (!accepted) throw new InvalidActionTokenError();
  }

  /** A token for the invitee and the message that carries its link, neither stored yet. */
  private async prepare(invitee: Pick<User, 'id' | 'email' | 'name'>) {
    const { tokens, accountMail, publicUrl } = this.deps;
    // Never null for an admin's message (see AdmitOptions.byAdmin).
    const compose = (await accountMail.admit('invitation', invitee.email, { byAdmin: true }))!;
    return tokens.prepare('invitation', { userId: invitee.id, email: invitee.email }, (token) =>
      compose({
        email: invitee.email,
        name: invitee.name || invitee.email,
        link: accountLink(publicUrl, 'invitation', token),
      }),
    );
  }

  private record(by: Initiator, action: AuditAction, id: string, changes: AuditChanges, time?: Date) {
    return auditRecord(this.deps.ids.next(), time ?? this.deps.clock.now(), by, action, invitationTarget(id), changes);
  }
}
