import type { Invitation, InvitationPage, ListedInvitation } from '../invitations/invitation.ts';
import type { InvitationRepository, InvitationResend, InvitationWrite } from '../invitations/invitation.repository.ts';
import type { AuditRecord } from '../audit/audit-event.ts';
import { hasPassword } from '../users/password-match.ts';
import type { User } from '../users/user.ts';
import type { UserRepository } from '../users/user.repository.ts';
import type { InMemoryActionTokenRepository } from './in-memory-action-tokens.ts';
import type { InMemoryAuditTrail } from './in-memory-audit-trail.ts';
import type { InMemoryMailQueue } from './in-memory-mail.ts';

/** What the invitations reach of the in-memory user store: its rows, as one transaction sees them. */
type UserRows = Pick<UserRepository, 'insert'> & { readonly rows: Map<string, User>; removeNow(id: string): void };

const byCreatedThenId = (a: Invitation, b: Invitation) =>
  a.created.getTime() - b.created.getTime() || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);

/**
 * Invitations in memory. Each change decides and writes without an `await` in between, as one
 * transaction of the real stores would; an invitation whose user was deleted is gone with it, as
 * the real stores' cascade makes it.
 */
export class InMemoryInvitationRepository implements InvitationRepository {
  private readonly rows = new Map<string, Invitation>();

  constructor(
    private readonly users: UserRows,
    private readonly tokens: InMemoryActionTokenRepository,
    private readonly mail: InMemoryMailQueue,
    private readonly audit: InMemoryAuditTrail,
  ) {}

  async create({ user, invitation, token, mail, audit }: InvitationWrite): Promise<void> {
    // Counts the sign-up as the real stores' triggers do; EmailTakenError for a known address.
    await this.users.insert(user);
    this.rows.set(invitation.id, structuredClone(invitation));
    this.tokens.insertNow(token);
    this.mail.insertNow(mail);
    this.audit.appendNow(audit);
  }

  async findPending(id: string): Promise<ListedInvitation | null> {
    return this.pending(id) ?? null;
  }

  async listPending({ page, size }: { page: number; size: number }): Promise<InvitationPage> {
    const all = [...this.rows.values()]
      .sort(byCreatedThenId)
      .flatMap((invitation) => this.pending(invitation.id) ?? []);
    return { invitations: all.slice((page - 1) * size, page * size), total: all.length };
  }

  async resend(id: string, { token, mail, audit }: InvitationResend): Promise<ListedInvitation | null> {
    const pending = this.pending(id);
    if (!pending || pending.email !== token.email) return null;
    this.tokens.voidUserTokens(pending.userId, token.created);
    this.tokens.insertNow(token);
    this.mail.insertNow(mail);
    this.rows.set(id, { ...this.rows.get(id)!, sent: token.created, expires: token.expires });
    this.audit.appendNow(audit);
    return this.pending(id)!;
  }

  async revoke(
    id: string,
    at: Date,
    audit: (pending: ListedInvitation, userRemoved: boolean) => AuditRecord,
  ): Promise<ListedInvitation | null> {
    const pending = this.pending(id);
    if (!pending) return null;
    const kept = hasPassword(this.users.rows.get(pending.userId)!.passwordHash);
    const record = audit(pending, !kept);
    this.rows.delete(id);
    if (kept) this.tokens.voidUserTokens(pending.userId, at);
    else this.users.removeNow(pending.userId);
    this.audit.appendNow(record);
    return pending;
  }

  async accept(
    digests: readonly string[],
    now: Date,
    accept: (user: User, invitation: Invitation) => { user: User; audit: AuditRecord },
  ): Promise<Invitation | null> {
    const token = this.tokens.findNow('invitation', digests, now);
    const invitation = token && [...this.rows.values()].find((row) => row.userId === token.userId);
    if (!token || !invitation || !this.pending(invitation.id)) return null;
    const { user, audit } = accept(structuredClone(this.users.rows.get(token.userId)!), structuredClone(invitation));
    this.tokens.consumeNow('invitation', digests, now);
    this.tokens.voidUserTokens(user.id, now);
    const accepted = { ...invitation, accepted: now };
    this.rows.set(invitation.id, accepted);
    this.users.rows.set(user.id, structuredClone(user));
    this.audit.appendNow(audit);
    return structuredClone(accepted);
  }

  /** The invitation while it is pending and its user exists, with the user's address and name. */
  private pending(id: string): ListedInvitation | undefined {
    const invitation = this.rows.get(id);
    const user = invitation && this.users.rows.get(invitation.userId);
    if (!invitation || !user || invitation.accepted !== null) return undefined;
    return structuredClone({ ...invitation, email: user.email, name: user.name });
  }
}
