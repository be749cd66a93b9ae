import { auditRecord, userChanges, userTarget, userUpdateAction } from '../audit/audit-records.ts';
import { SYSTEM, type AuditAction, type AuditChanges, type Initiator } from '../audit/audit-event.ts';
import type { Clock } from '../shared/clock.ts';
import type { IdGenerator } from '../shared/id-generator.ts';
import type { PasswordHasher } from '../shared/password-hasher.ts';
import { NotFoundError, PreconditionFailedError, ValidationError } from '../shared/errors.ts';
import type { NewMail } from '../mail/mail-message.ts';
import type { BanInput, ListedUser, NewUser, ShownUser, User, UserPatch } from './user.ts';
import { applyBan, banChanges, banInForce, banIssues, liftBan } from './user-ban.ts';
import type { LoginAttemptRepository } from '../throttling/login-attempt.repository.ts';
import { accountKey, windowStart, type ThrottlePolicy } from '../throttling/throttle.ts';
import type { UserListQuery, UserPage, UserRepository } from './user.repository.ts';
import {
  applyUserPatch,
  changesEndSessions,
  changesVoidTokens,
  emailSearchTerm,
  newUserIssues,
  normalizeEmail,
  userAttributeIssues,
  verifiedAt,
  type UserChanges,
} from './user.rules.ts';
import type { ActiveFlag } from './user.ts';
import { freshUser } from './fresh-user.ts';

export const DEFAULT_PAGE_SIZE = 20;
export const MAX_PAGE_SIZE = 100;

export interface UserServiceDeps {
  users: UserRepository;
  /** Where the users' failed logins are counted, and the window they count in. */
  attempts: LoginAttemptRepository;
  throttle: ThrottlePolicy;
  hasher: PasswordHasher;
  clock: Clock;
  ids: IdGenerator;
}

export interface ShownUserPage {
  users: ShownUser<ListedUser>[];
  total: number;
}

/** How a change is made: the session it keeps, and the versions it is conditional on. */
export interface ChangeOptions {
  /** The caller's own session, which a change that ends sessions leaves open. */
  keepSessionId?: string;
  /** Change only if the stored version is one of these (HTTP If-Match); otherwise PreconditionFailedError. */
  ifVersion?: readonly number[];
  /** Refuses the change by throwing, seeing the user as it is when written (in the transaction). */
  check?: (current: User) => void;
  /** Who asks, as the audit trail records it; the system when not given. */
  by?: Initiator;
  /** A message the change causes (a security notice), queued in its transaction. */
  mail?: NewMail;
}

function requireVersion(user: User, ifVersion: readonly number[] | undefined): void {
  if (ifVersion !== undefined && !ifVersion.includes(user.version)) throw new PreconditionFailedError();
}

/** Account management as an administrator sees it. */
export class UserService {
  constructor(private readonly deps: UserServiceDeps) {}

  async create(input: NewUser, by: Initiator = SYSTEM): Promise<ShownUser> {
    const issues = newUserIssues(input);
    if (issues.length > 0) throw new ValidationError(issues);
    const now = this.deps.clock.now();
    const user = freshUser(
      {
        id: this.deps.ids.next(),
        name: input.name ?? '',
        email: normalizeEmail(input.email),
        passwordHash: await this.deps.hasher.hash(input.password),
        metadata: input.metadata ?? {},
        app: input.app ?? {},
        active: (input.active ?? 1) as ActiveFlag,
        emailVerified: verifiedAt(null, input.emailVerified ?? true, now),
      },
      now,
    );
    await this.deps.users.insert(user, this.record(by, 'user.created', user.id, userChanges(null, user), now));
    return this.shownOne(user);
  }

  async get(id: string): Promise<ShownUser> {
    const user = await this.deps.users.findById(id);
    if (!user) throw new NotFoundError('user');
    return this.shownOne(user);
  }

  async list(query: UserListQuery): Promise<ShownUserPage> {
    const page: UserPage = await this.deps.users.list({
      ...query,
      emailContains: emailSearchTerm(query.emailContains),
    });
    return { total: page.total, users: await this.shown(page.users) };
  }

  /**
   * The users with their recent failed logins: one read of the login-attempt records for the
   * whole page, by the account keys that every login attempt is recorded under.
   */
  private async shown<T extends ListedUser>(users: readonly T[]): Promise<ShownUser<T>[]> {
    if (users.length === 0) return [];
    const { attempts, throttle, clock } = this.deps;
    const keys = users.map((user) => accountKey('user', user.email));
    const now = clock.now();
    const counts = await attempts.failureCounts(keys, windowStart(throttle.perAccountAndAddress, now));
    return users.map((user, index) => ({
      ...user,
      recentFailedLogins: counts.get(keys[index]!) ?? 0,
      banned: banInForce(user, now),
    }));
  }

  private async shownOne<T extends ListedUser>(user: T): Promise<ShownUser<T>> {
    const [shown] = await this.shown([user]);
    return shown!;
  }

  /**
   * Applies a partial update to the user as it is when the write happens (the repository holds
   * the row meanwhile). A new password or email, or deactivation, ends the user's sessions in
   * the same transaction; a new password or email also voids the user's single-use tokens.
   */
  async update(
    id: string,
    patch: UserPatch,
    { keepSessionId, ifVersion, check, by = SYSTEM, mail }: ChangeOptions = {},
  ): Promise<ShownUser> {
    const issues = userAttributeIssues(patch);
    if (issues.length > 0) throw new ValidationError(issues);
    const { password, active, ...rest } = patch;
    const changes: UserChanges = { ...rest };
    // Hashing is slow: done before the transaction, so the row is held only for the write.
    if (password !== undefined) changes.passwordHash = await this.deps.hasher.hash(password);
    if (active !== undefined) changes.active = active as ActiveFlag;
    const now = this.deps.clock.now();
    const updated = await this.deps.users.update(id, (current) => {
      requireVersion(current, ifVersion);
      check?.(current);
      const user = applyUserPatch(current, changes, now);
      const audit = this.record(by, userUpdateAction(current, user), id, userChanges(current, user), now);
      const voidTokens = changesVoidTokens(current, changes);
      return changesEndSessions(current, changes)
        ? { user, endSessions: { keepSessionId }, audit, voidTokens, mail }
        : { user, audit, voidTokens, mail };
    });
    if (!updated) throw new NotFoundError('user');
    return this.shownOne(updated);
  }

  /**
   * Bans the user from now until `until` (or without end): in one transaction the ban, the end of
   * every session of the user, the voiding of its single-use tokens (a link handed out before
   * must not act for a banned account) and the `user.banned` event. Logins are refused from then
   * on, and a login that read the user just before cannot open its session after (the session
   * store checks the ban as it opens one).
   */
  async ban(id: string, input: BanInput, by: Initiator = SYSTEM): Promise<ShownUser> {
    const now = this.deps.clock.now();
    const issues = banIssues(input, now);
    if (issues.length > 0) throw new ValidationError(issues);
    const updated = await this.deps.users.update(id, (current) => {
      const user = applyBan(current, input, now);
      const audit = this.record(by, 'user.banned', id, banChanges(current, user, now), now);
      return { user, endSessions: {}, voidTokens: true, audit };
    });
    if (!updated) throw new NotFoundError('user');
    return this.shownOne(updated);
  }

  /** Lifts the user's ban (`user.unbanned`); a user without a ban is answered as it is, and nothing is recorded. */
  async unban(id: string, by: Initiator = SYSTEM): Promise<ShownUser> {
    const now = this.deps.clock.now();
    const updated = await this.deps.users.update(id, (current) => {
      const user = liftBan(current, now);
      if (user === current) return { user };
      return { user, audit: this.record(by, 'user.unbanned', id, banChanges(current, user, now), now) };
    });
    if (!updated) throw new NotFoundError('user');
    return this.shownOne(updated);
  }

  /** Deletes the user and ends its sessions in one transaction. */
  async delete(id: string, { ifVersion, by = SYSTEM }: Pick<ChangeOptions, 'ifVersion' | 'by'> = {}): Promise<void> {
    const now = this.deps.clock.now();
    const deleted = await this.deps.users.delete(id, now, (current) => {
      requireVersion(current, ifVersion);
      return this.record(by, 'user.deleted', id, userChanges(current, null), now);
    });
    if (!deleted) throw new NotFoundError('user');
  }

  private record(by: Initiator, action: AuditAction, userId: string, changes: AuditChanges, time?: Date) {
    return auditRecord(this.deps.ids.next(), time ?? this.deps.clock.now(), by, action, userTarget(userId), changes);
  }
}
