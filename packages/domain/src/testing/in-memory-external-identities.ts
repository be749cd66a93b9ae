import type { AuditRecord } from '../audit/audit-event.ts';
import type { ExternalIdentity } from '../identities/external-identity.ts';
import type { ExternalIdentityRepository } from '../identities/external-identity.repository.ts';
import { IdentityAlreadyLinkedError, LastSignInMethodError } from '../shared/errors.ts';
import type { SubjectKind } from '../shared/identity.ts';
import type { User } from '../users/user.ts';
import { hasPassword } from '../users/password-match.ts';
import type { InMemoryAuditTrail } from './in-memory-audit-trail.ts';
import type { DroppedWithAccount } from './dropped-with-account.ts';
import type { DroppedWithProvider } from './in-memory-identity-providers.ts';

const oldestFirst = (a: ExternalIdentity, b: ExternalIdentity) =>
  a.created.getTime() - b.created.getTime() || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);

/** What the identities see of the other fakes' users: the same store the user repository keeps. */
export interface IdentityUsers {
  readonly rows: ReadonlyMap<string, User>;
  /** Stores a new user and counts the sign-up, at once; EmailTakenError when the email is taken. */
  signUpNow(user: User): void;
}

/**
 * External identities in memory. Each check and its write run without an `await` in between,
 * which is what the real stores' transaction (holding the user's row) gives.
 */
export class InMemoryExternalIdentityRepository
  implements ExternalIdentityRepository, DroppedWithAccount, DroppedWithProvider
{
  readonly rows = new Map<string, ExternalIdentity>();

  constructor(
    private readonly users: IdentityUsers,
    /** Whether a user has an active passkey: a way in besides a password or an identity. */
    private readonly hasActivePasskey: (userId: string) => boolean,
    private readonly audit: InMemoryAuditTrail,
  ) {}

  async findBySubject(providerId: string, subject: string): Promise<ExternalIdentity | null> {
    const row = this.bySubject(providerId, subject);
    return row ? structuredClone(row) : null;
  }

  async listByUser(userId: string): Promise<ExternalIdentity[]> {
    return this.of(userId).map((row) => structuredClone(row));
  }

  async link(identity: ExternalIdentity, audit: AuditRecord): Promise<ExternalIdentity | null> {
    if (this.bySubject(identity.providerId, identity.subject)) throw new IdentityAlreadyLinkedError();
    if (!this.users.rows.has(identity.userId)) return null;
    this.rows.set(identity.id, structuredClone(identity));
    this.audit.appendNow(audit);
    return structuredClone(identity);
  }

  async createUserWithIdentity(user: User, identity: ExternalIdentity, audit: AuditRecord): Promise<void> {
    if (this.bySubject(identity.providerId, identity.subject)) throw new IdentityAlreadyLinkedError();
    this.users.signUpNow(user);
    this.rows.set(identity.id, structuredClone(identity));
    this.audit.appendNow(audit);
  }

  async touch(id: string, email: string | null, emailVerified: boolean, at: Date, audit: AuditRecord): Promise<void> {
    const row = this.rows.get(id);
    if (!row) return;
    this.rows.set(id, { ...row, email, emailVerified, lastSignIn: at });
    this.audit.appendNow(audit);
  }

  async unlink(userId: string, id: string, audit: AuditRecord): Promise<boolean> {
    const row = this.rows.get(id);
    if (row?.userId !== userId) return false;
    const user = this.users.rows.get(userId);
    const anotherWayIn =
      (user !== undefined && hasPassword(user.passwordHash)) ||
      this.hasActivePasskey(userId) ||
      this.of(userId).some((other) => other.id !== id);
    if (!anotherWayIn) throw new LastSignInMethodError();
    this.rows.delete(id);
    this.audit.appendNow(audit);
    return true;
  }

  /** Removes the user's identity if its provider does not vouch for its email (a recovery): whether it did. */
  unlinkUnvouchedNow(userId: string, id: string): boolean {
    const row = this.rows.get(id);
    return row?.userId === userId && !row.emailVerified && this.rows.delete(id);
  }

  dropAccount(owner: SubjectKind, subjectId: string): void {
    if (owner === 'user') for (const row of this.of(subjectId)) this.rows.delete(row.id);
  }

  /** Whether any identity exists through the provider. */
  heldBy(providerId: string): boolean {
    return [...this.rows.values()].some((row) => row.providerId === providerId);
  }

  dropProvider(providerId: string): void {
    for (const row of [...this.rows.values()]) if (row.providerId === providerId) this.rows.delete(row.id);
  }

  private bySubject(providerId: string, subject: string): ExternalIdentity | undefined {
    return [...this.rows.values()].find((row) => row.providerId === providerId && row.subject === subject);
  }

  private of(userId: string): ExternalIdentity[] {
    return [...this.rows.values()].filter((row) => row.userId === userId).sort(oldestFirst);
  }
}
