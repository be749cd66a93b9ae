import type { ActionPurpose, ActionToken, PreparedActionToken } from '../action-tokens/action-token.ts';
import type { AuditRecord } from '../audit/audit-event.ts';
import { EmailTakenError, LastOwnerError } from '../shared/errors.ts';
import type { Admin } from '../admins/admin.ts';
import type { AdminRole } from '../admins/admin-roles.ts';
import type { AdminChange, AdminRepository } from '../admins/admin.repository.ts';
import type { SubjectKind } from '../shared/identity.ts';
import { isSessionLive, isUserLogin, type RefreshToken, type Session } from '../sessions/session.ts';
import type { SessionRepository, SessionWithAccount, VerifiedAccount } from '../sessions/session.repository.ts';
import type { PasswordRehashRepository } from '../sessions/password-rehash.repository.ts';
import type { FailureStats, LoginAttemptRepository } from '../throttling/login-attempt.repository.ts';
import type { SigningKey } from '../tokens/signing-key.ts';
import type { SigningKeyRepository } from '../tokens/signing-key.repository.ts';
import type { User } from '../users/user.ts';
import { banInForce } from '../users/user-ban.ts';
import type { UserListQuery, UserPage, UserRepository, UserWrite } from '../users/user.repository.ts';
import type { Repositories } from '../repositories.ts';
import type { ImportEntry, ImportPlan } from '../transfer/import-plan.ts';
import type { ExportCursor, UserImportRepository } from '../transfer/user-import.repository.ts';
import { dayOf, type Day, type DayActivity, type UserTotals } from '../stats/activity.ts';
import type { ActivityRepository } from '../stats/activity.repository.ts';
import { InMemoryAuditTrail } from './in-memory-audit-trail.ts';
import { InMemoryMailQueue, InMemorySecretRepository } from './in-memory-mail.ts';
import { InMemoryActionTokenRepository } from './in-memory-action-tokens.ts';
import { InMemoryRateCounterRepository } from './in-memory-rate-counters.ts';
import { InMemoryMailRequestQueue } from './in-memory-mail-requests.ts';
import { InMemoryInvitationRepository } from './in-memory-invitations.ts';
import { InMemoryAdminInvitationRepository } from './in-memory-admin-invitations.ts';
import { InMemoryWebhookRepository } from './in-memory-webhooks.ts';
import { InMemoryWebhookDeliveryRepository } from './in-memory-webhook-deliveries.ts';
import type { DroppedWithAccount } from './dropped-with-account.ts';
import { InMemoryFactorRepository } from './in-memory-factors.ts';
import { InMemorySignInChallengeRepository } from './in-memory-sign-in-challenges.ts';
import { InMemoryIdentityProviderRepository } from './in-memory-identity-providers.ts';
import { InMemoryExternalIdentityRepository } from './in-memory-external-identities.ts';
import { InMemoryOAuthAttemptRepository } from './in-memory-oauth-attempts.ts';
import { InMemoryOAuthClientRepository } from './in-memory-oauth-clients.ts';
import { InMemoryOpenIdRecordRepository } from './in-memory-openid-records.ts';

const byCreatedThenId = (a: { created: Date; id: string }, b: { created: Date; id: string }) =>
  a.created.getTime() - b.created.getTime() || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);

/** Records keyed by id with a unique email, the shape shared by users and admins. */
class EmailKeyedStore<T extends { id: string; email: string; created: Date }> {
  readonly rows = new Map<string, T>();

  async insert(record: T): Promise<void> {
    this.insertNow(record);
  }
  /** Stores a new record at once: EmailTakenError when another holds its email. */
  insertNow(record: T): void {
    if (this.emailOwner(record.email) !== undefined) throw new EmailTakenError();
    this.rows.set(record.id, structuredClone(record));
  }
  async findById(id: string): Promise<T | null> {
    const row = this.rows.get(id);
    return row ? structuredClone(row) : null;
  }
  async findByEmail(email: string): Promise<T | null> {
    const id = this.emailOwner(email);
    return id === undefined ? null : this.findById(id);
  }
  async replace(record: T): Promise<T | null> {
    if (!this.rows.has(record.id)) return null;
    return this.replaceNow(record);
  }
  /** Replaces a stored record at once: EmailTakenError when another holds its email. */
  replaceNow(record: T): T {
    const owner = this.emailOwner(record.email);
    if (owner !== undefined && owner !== record.id) throw new EmailTakenError();
    this.rows.set(record.id, structuredClone(record));
    return structuredClone(record);
  }
  ordered(): T[] {
    return [...this.rows.values()].sort(byCreatedThenId);
  }
  protected emailOwner(email: string): string | undefined {
    return [...this.rows.values()].find((row) => row.email === email)?.id;
  }
}

/**
 * Users, and the sessions their changes end. Each read-decide-write runs without an `await` in
 * between, which is what a transaction holding the row gives the real stores.
 */
export class InMemoryUserRepository extends EmailKeyedStore<User> implements UserRepository {
  constructor(
    private readonly sessions: InMemorySessionRepository,
    private readonly activity: InMemoryActivityRepository,
    private readonly audit: InMemoryAuditTrail,
    private readonly tokens: () => InMemoryActionTokenRepository,
    /** What goes with a deleted account, as the databases' foreign keys take it along. */
    private readonly dependents: () => readonly DroppedWithAccount[] = () => [],
    /** Removes a user's identity if it is still unvouched (UserWrite.unlinkUnvouched): whether it did. */
    private readonly unlinkUnvouched: (userId: string, identityId: string) => boolean = () => false,
  ) {
    super();
  }

  override async insert(user: User, audit?: AuditRecord, issued?: PreparedActionToken): Promise<void> {
    this.signUpNow(user);
    if (issued) {
      this.tokens().insertNow(issued.token);
      this.tokens().queueNow(issued.mail);
    }
    if (audit) this.audit.appendNow(audit);
  }

  /** Stores a new user at once and counts the sign-up: EmailTakenError when the email is taken. */
  signUpNow(user: User): void {
    this.insertNow(user);
    this.activity.count(user.created, 'signups');
  }

  async update(id: string, change: (current: User) => UserWrite): Promise<User | null> {
    const current = this.rows.get(id);
    if (!current) return null;
    return this.write(id, change(structuredClone(current)));
  }

  async redeem(
    purpose: ActionPurpose | readonly ActionPurpose[],
    digests: readonly string[],
    now: Date,
    change: (current: User, token: ActionToken) => UserWrite,
  ): Promise<User | null> {
    const token = this.tokens().findNow(purpose, digests, now);
    const current = token && this.rows.get(token.userId);
    if (!token || !current) return null;
    // Decided before the token is marked used: a change that throws leaves it usable.
    const decided = change(structuredClone(current), { ...token, used: now });
    // A taken email is refused before the token is used too, as a store's transaction rolls both back.
    const owner = this.emailOwner(decided.user.email);
    if (owner !== undefined && owner !== token.userId) throw new EmailTakenError();
    this.tokens().consumeNow(purpose, digests, now);
    return this.write(token.userId, decided);
  }

  /** What a change writes, with everything it implies; no `await` before the row is replaced. */
  private write(id: string, { user, endSessions, audit, voidTokens, mail, unlinkUnvouched }: UserWrite): User {
    const stored = this.replaceNow(user);
    for (const unlinked of unlinkUnvouched ?? []) {
      if (this.unlinkUnvouched(id, unlinked.identityId)) this.audit.appendNow(unlinked.audit);
    }
    if (endSessions) this.sessions.endSubjectSessions('user', id, user.updated, endSessions.keepSessionId);
    if (voidTokens) this.tokens().voidUserTokens(id, user.updated);
    if (audit) this.audit.appendNow(audit);
    if (mail) this.tokens().queueNow(mail);
    return stored;
  }

  async insertMany(users: readonly User[]): Promise<void> {
    const emails = new Set(users.map((user) => user.email));
    if (emails.size < users.length || users.some((user) => this.emailOwner(user.email) !== undefined))
      throw new EmailTakenError();
    for (const user of users) {
      this.rows.set(user.id, structuredClone(user));
      this.activity.count(user.created, 'signups');
    }
  }
  async list({ page, size, emailContains }: UserListQuery): Promise<UserPage> {
    const matching = this.ordered().filter((user) => !emailContains || user.email.includes(emailContains));
    const users = matching
      .slice((page - 1) * size, page * size)
      .map(({ passwordHash: _hash, ...listed }) => structuredClone(listed));
    return { users, total: matching.length };
  }
  async delete(id: string, at: Date, check?: (current: User) => AuditRecord | undefined): Promise<boolean> {
    const current = this.rows.get(id);
    if (!current) return false;
    const audit = check?.(structuredClone(current));
    this.removeNow(id);
    this.sessions.endSubjectSessions('user', id, at);
    if (audit) this.audit.appendNow(audit);
    return true;
  }

  /** Deletes the user at once, with what goes along with it. */
  removeNow(id: string): void {
    this.rows.delete(id);
    this.tokens().dropUserTokens(id);
    for (const dependent of this.dependents()) dependent.dropAccount('user', id);
  }
}

/**
 * Admins. A change or removal checks the owners and writes without an `await` in between, as the
 * real stores' transaction under a lock does.
 */
export class InMemoryAdminRepository extends EmailKeyedStore<Admin> implements AdminRepository {
  constructor(
    private readonly sessions: InMemorySessionRepository,
    private readonly audit: InMemoryAuditTrail,
    /** What goes with a removed admin, as the databases' foreign keys take it along. */
    private readonly dependents: () => readonly DroppedWithAccount[] = () => [],
  ) {
    super();
  }

  async list(): Promise<Admin[]> {
    return this.ordered().map((admin) => structuredClone(admin));
  }

  async change(id: string, change: (current: Admin) => AdminChange): Promise<Admin | null> {
    const current = this.rows.get(id);
    if (!current) return null;
    const { admin, audit } = change(structuredClone(current));
    if (current.role === 'owner' && admin.role !== 'owner') this.keepAnOwner();
    const stored = this.replaceNow({ ...admin, id });
    if (audit) this.audit.appendNow(audit);
    return stored;
  }

  async remove(id: string, at: Date, audit: (removed: Admin) => AuditRecord): Promise<Admin | null> {
    const current = this.rows.get(id);
    if (!current) return null;
    if (current.role === 'owner') this.keepAnOwner();
    const record = audit(structuredClone(current));
    this.rows.delete(id);
    this.sessions.endSubjectSessions('admin', id, at);
    for (const dependent of this.dependents()) dependent.dropAccount('admin', id);
    this.audit.appendNow(record);
    return structuredClone(current);
  }

  /** LastOwnerError unless another owner would remain after one stops being one. */
  private keepAnOwner(): void {
    if ([...this.rows.values()].filter((admin) => admin.role === 'owner').length < 2) throw new LastOwnerError();
  }

  async update(admin: Admin, { endSessions = false } = {}): Promise<Admin | null> {
    const stored = await this.replace(admin);
    if (stored && endSessions) this.sessions.endSubjectSessions('admin', admin.id, admin.updated);
    return stored;
  }
  async findFirst(): Promise<Admin | null> {
    const first = this.ordered()[0];
    return first ? structuredClone(first) : null;
  }
}

/**
 * The stored account a session of `kind` belongs to (with its role, for an admin), if it exists,
 * is active and is not banned at `at`.
 */
export type ActiveAccountLookup = (
  kind: SubjectKind,
  id: string,
  at: Date,
) => (VerifiedAccount & { readonly role?: AdminRole }) | undefined;

/** What a user's login writes besides its session: the user's last login, the day's logins. */
export type LoginRecorder = (id: string, at: Date) => void;

export class InMemorySessionRepository implements SessionRepository {
  private readonly sessions = new Map<string, Session>();
  private readonly tokens = new Map<string, RefreshToken>();

  constructor(
    private readonly activeAccount: ActiveAccountLookup,
    private readonly loggedIn: LoginRecorder,
    private readonly audit: InMemoryAuditTrail,
    /** What the OpenID engine holds about users: ending a user's sessions ends theirs too. */
    private readonly openIdRecords: () => Pick<InMemoryOpenIdRecordRepository, 'dropAccountRecords'>,
  ) {}

  async create(
    session: Session,
    firstToken: RefreshToken,
    verified: VerifiedAccount,
    audit?: AuditRecord,
  ): Promise<boolean> {
    const account = this.activeAccount(session.kind, session.subjectId, session.created);
    if (account?.email !== verified.email || account.passwordHash !== verified.passwordHash) return false;
    this.sessions.set(session.id, { ...session });
    this.tokens.set(firstToken.id, { ...firstToken });
    if (isUserLogin(session)) this.loggedIn(session.subjectId, session.created);
    if (audit) this.audit.appendNow(audit);
    return true;
  }
  async findSession(id: string): Promise<Session | null> {
    const session = this.sessions.get(id);
    return session ? { ...session } : null;
  }
  async findSessionWithAccount(id: string, kind: SubjectKind, now: Date): Promise<SessionWithAccount | null> {
    const session = this.sessions.get(id);
    if (session?.kind !== kind) return null;
    const account = this.activeAccount(session.kind, session.subjectId, now);
    return { session: { ...session }, accountActive: account !== undefined, role: account?.role ?? null };
  }
  async findToken(id: string): Promise<RefreshToken | null> {
    const token = this.tokens.get(id);
    return token ? { ...token } : null;
  }
  async findCurrentToken(sessionId: string, now: Date): Promise<RefreshToken | null> {
    if (this.sessions.get(sessionId)?.revoked !== null) return null;
    const live = [...this.tokens.values()]
      .filter(
        (token) =>
          token.sessionId === sessionId && !token.retired && !token.revoked && token.expires.getTime() > now.getTime(),
      )
      .sort((a, b) => b.issued.getTime() - a.issued.getTime());
    return live[0] ? { ...live[0] } : null;
  }
  async rotate(currentId: string, next: RefreshToken, at: Date): Promise<boolean> {
    const current = this.tokens.get(currentId);
    if (!current || current.retired || current.revoked || this.sessions.get(current.sessionId)?.revoked !== null)
      return false;
    this.tokens.set(currentId, { ...current, retired: at });
    this.tokens.set(next.id, { ...next });
    const session = this.sessions.get(current.sessionId)!;
    this.sessions.set(session.id, { ...session, lastUsed: at, expires: next.expires });
    return true;
  }
  async listLive(kind: SubjectKind, subjectId: string, now: Date, limit: number): Promise<Session[]> {
    return [...this.sessions.values()]
      .filter((session) => this.isLiveOf(session, kind, subjectId, now))
      .sort((a, b) => b.lastUsed.getTime() - a.lastUsed.getTime() || (a.id < b.id ? -1 : 1))
      .slice(0, limit)
      .map((session) => ({ ...session }));
  }
  async revokeSubjectSession(
    kind: SubjectKind,
    subjectId: string,
    sessionId: string,
    at: Date,
    audit?: AuditRecord,
  ): Promise<boolean> {
    const session = this.sessions.get(sessionId);
    if (!session || !this.isLiveOf(session, kind, subjectId, at)) return false;
    this.sessions.set(sessionId, { ...session, revoked: at });
    if (audit) this.audit.appendNow(audit);
    return true;
  }
  private isLiveOf(session: Session, kind: SubjectKind, subjectId: string, now: Date): boolean {
    return session.kind === kind && session.subjectId === subjectId && isSessionLive(session, now);
  }
  async revokeToken(id: string, at: Date, audit?: AuditRecord): Promise<void> {
    const token = this.tokens.get(id);
    if (!token || token.revoked) return;
    this.tokens.set(id, { ...token, revoked: at });
    if (audit) this.audit.appendNow(audit);
  }
  async revokeSession(id: string, at: Date, audit?: AuditRecord): Promise<void> {
    const session = this.sessions.get(id);
    if (!session || session.revoked) return;
    this.sessions.set(id, { ...session, revoked: at });
    if (audit) this.audit.appendNow(audit);
  }
  async revokeSubjectSessions(
    kind: SubjectKind,
    subjectId: string,
    at: Date,
    keepSessionId?: string,
    audit?: AuditRecord,
  ): Promise<void> {
    if (this.endSubjectSessions(kind, subjectId, at, keepSessionId) > 0 && audit) this.audit.appendNow(audit);
  }
  /**
   * revokeSubjectSessions at once, for a change of the user store that commits with it; answers
   * how many ended (a user's OpenID records counted).
   */
  endSubjectSessions(kind: SubjectKind, subjectId: string, at: Date, keepSessionId?: string): number {
    let ended = 0;
    for (const session of this.sessions.values()) {
      if (
        session.kind === kind &&
        session.subjectId === subjectId &&
        session.id !== keepSessionId &&
        !session.revoked
      ) {
        this.sessions.set(session.id, { ...session, revoked: at });
        ended += 1;
      }
    }
    return kind === 'user' ? ended + this.openIdRecords().dropAccountRecords(subjectId) : ended;
  }
  async prune(before: Date): Promise<void> {
    for (const token of this.tokens.values()) {
      if (token.expires.getTime() < before.getTime()) this.tokens.delete(token.id);
    }
    const withTokens = new Set([...this.tokens.values()].map((token) => token.sessionId));
    for (const session of this.sessions.values()) {
      if ((session.revoked && session.revoked.getTime() < before.getTime()) || !withTokens.has(session.id)) {
        this.sessions.delete(session.id);
      }
    }
  }
}

export class InMemoryLoginAttemptRepository implements LoginAttemptRepository {
  private failures: { id: string; key: string; at: Date }[] = [];

  async record(id: string, keys: readonly string[], at: Date): Promise<void> {
    for (const key of keys) this.failures.push({ id, key, at });
  }
  async withdraw(id: string): Promise<void> {
    this.failures = this.failures.filter((failure) => failure.id !== id);
  }
  async failuresSince(key: string, since: Date): Promise<FailureStats> {
    const times = this.failures
      .filter((failure) => failure.key === key && failure.at.getTime() >= since.getTime())
      .map((failure) => failure.at.getTime());
    return { count: times.length, oldest: times.length ? new Date(Math.min(...times)) : null };
  }
  async failureCounts(keys: readonly string[], since: Date): Promise<Map<string, number>> {
    const counts = new Map<string, number>();
    for (const { key, at } of this.failures) {
      if (keys.includes(key) && at.getTime() >= since.getTime()) counts.set(key, (counts.get(key) ?? 0) + 1);
    }
    return counts;
  }
  async clear(key: string): Promise<void> {
    this.failures = this.failures.filter((failure) => failure.key !== key);
  }
  async prune(before: Date): Promise<void> {
    this.failures = this.failures.filter((failure) => failure.at.getTime() >= before.getTime());
  }
}

export class InMemorySigningKeyRepository implements SigningKeyRepository {
  private readonly keys = new Map<string, SigningKey>();

  constructor(private readonly audit: InMemoryAuditTrail) {}

  async rotate(key: SigningKey, retireOthers: Date, audit?: AuditRecord): Promise<void> {
    for (const other of this.keys.values()) {
      if (other.activates.getTime() > key.activates.getTime()) this.keys.delete(other.kid);
      else if (!other.retires) this.keys.set(other.kid, { ...other, retires: retireOthers });
    }
    this.keys.set(key.kid, structuredClone(key));
    if (audit) this.audit.appendNow(audit);
  }
  async listUsable(now: Date): Promise<SigningKey[]> {
    return [...this.keys.values()]
      .filter((key) => !key.retires || key.retires.getTime() > now.getTime())
      .sort((a, b) => b.created.getTime() - a.created.getTime() || (a.kid < b.kid ? 1 : -1))
      .map((key) => structuredClone(key));
  }
}

export class InMemoryPasswordRehashRepository implements PasswordRehashRepository {
  constructor(private readonly stores: Record<SubjectKind, EmailKeyedStore<User | Admin>>) {}

  async replaceHash(kind: SubjectKind, id: string, verified: string, next: string): Promise<boolean> {
    const row = this.stores[kind].rows.get(id);
    if (!row || row.passwordHash !== verified) return false;
    this.stores[kind].rows.set(id, { ...row, passwordHash: next });
    return true;
  }
}

export class InMemoryUserImportRepository implements UserImportRepository {
  constructor(
    private readonly users: InMemoryUserRepository,
    private readonly sessions: InMemorySessionRepository,
    private readonly activity: InMemoryActivityRepository,
    private readonly audit: InMemoryAuditTrail,
  ) {}

  async importBatch(
    entries: readonly ImportEntry[],
    decide: (stored: readonly User[]) => ImportPlan,
    options: { write: boolean; now: Date; audit?: (plan: ImportPlan) => AuditRecord | null },
  ): Promise<ImportPlan> {
    const emails = new Set(entries.map((entry) => entry.user.email));
    const ids = new Set(entries.map((entry) => entry.user.id));
    const stored = [...this.users.rows.values()].filter((user) => emails.has(user.email) || ids.has(user.id));
    const plan = decide(structuredClone(stored));
    if (!options.write || plan.failure) return plan;
    // Checked before anything is written, so the batch is all or nothing as a transaction is.
    const after = new Map(this.users.rows);
    for (const user of [...plan.updates, ...plan.inserts]) after.set(user.id, structuredClone(user));
    const emailsAfter = new Set([...after.values()].map((user) => user.email));
    if (emailsAfter.size !== after.size) throw new EmailTakenError();
    this.users.rows.clear();
    for (const [id, user] of after) this.users.rows.set(id, user);
    for (const user of plan.inserts) this.activity.count(user.created, 'signups');
    for (const id of plan.endSessions) this.sessions.endSubjectSessions('user', id, options.now);
    const audit = options.audit?.(plan);
    if (audit) this.audit.appendNow(audit);
    return plan;
  }

  async exportPage(after: ExportCursor | null, limit: number, emailContains?: string): Promise<User[]> {
    return this.users
      .ordered()
      .filter((user) => !after || byCreatedThenId(user, after) > 0)
      .filter((user) => !emailContains || user.email.includes(emailContains))
      .slice(0, limit)
      .map((user) => structuredClone(user));
  }
}

type Counted = Exclude<keyof DayActivity, 'day'>;

/** The activity counters, bumped by the other fakes as the real stores' writes bump theirs. */
export class InMemoryActivityRepository implements ActivityRepository {
  private readonly byDay = new Map<Day, DayActivity>();

  constructor(private readonly users: () => Iterable<User>) {}

  count(at: Date, what: Counted): void {
    const day = dayOf(at);
    const counted = this.byDay.get(day) ?? { day, signups: 0, logins: 0, failedLogins: 0 };
    this.byDay.set(day, { ...counted, [what]: counted[what] + 1 });
  }
  async userTotals(): Promise<UserTotals> {
    const all = [...this.users()];
    return { total: all.length, active: all.filter((user) => user.active === 1).length };
  }
  async days(first: Day, last: Day): Promise<DayActivity[]> {
    return [...this.byDay.values()]
      .filter(({ day }) => day >= first && day <= last)
      .sort((a, b) => (a.day < b.day ? -1 : 1))
      .map((entry) => ({ ...entry }));
  }
  async countFailedLogin(at: Date): Promise<void> {
    this.count(at, 'failedLogins');
  }
}

export function inMemoryRepositories(): Repositories & {
  audit: InMemoryAuditTrail;
  identityProviders: InMemoryIdentityProviderRepository;
  externalIdentities: InMemoryExternalIdentityRepository;
  oauthAttempts: InMemoryOAuthAttemptRepository;
  oauthClients: InMemoryOAuthClientRepository;
  openIdRecords: InMemoryOpenIdRecordRepository;
} {
  const audit = new InMemoryAuditTrail();
  const activity: InMemoryActivityRepository = new InMemoryActivityRepository(() => users.rows.values());
  const sessions = new InMemorySessionRepository(
    (kind, id, at): VerifiedAccount | undefined =>
      kind === 'admin'
        ? admins.rows.get(id)
        : [users.rows.get(id)].find((user) => user?.active === 1 && !banInForce(user, at)),
    (id, at) => {
      users.rows.set(id, { ...users.rows.get(id)!, lastLogin: at });
      activity.count(at, 'logins');
    },
    audit,
    () => openIdRecords,
  );
  const users: InMemoryUserRepository = new InMemoryUserRepository(
    sessions,
    activity,
    audit,
    () => tokens,
    () => [factors, signInChallenges, externalIdentities, openIdRecords],
    (userId, identityId) => externalIdentities.unlinkUnvouchedNow(userId, identityId),
  );
  const mail = new InMemoryMailQueue(audit);
  const tokens = new InMemoryActionTokenRepository(mail, audit, (id) => users.rows.has(id));
  const admins = new InMemoryAdminRepository(sessions, audit, () => [factors, signInChallenges]);
  const factors = new InMemoryFactorRepository(sessions, audit, mail);
  const signInChallenges = new InMemorySignInChallengeRepository();
  const webhooks = new InMemoryWebhookRepository(audit);
  const externalIdentities = new InMemoryExternalIdentityRepository(
    users,
    (id) => factors.hasActivePasskeyNow('user', id),
    audit,
  );
  const oauthAttempts = new InMemoryOAuthAttemptRepository();
  const openIdRecords = new InMemoryOpenIdRecordRepository(audit);
  return {
    activity,
    users,
    admins,
    sessions,
    imports: new InMemoryUserImportRepository(users, sessions, activity, audit),
    attempts: new InMemoryLoginAttemptRepository(),
    signingKeys: new InMemorySigningKeyRepository(audit),
    rehash: new InMemoryPasswordRehashRepository({ user: users, admin: admins }),
    audit,
    secrets: new InMemorySecretRepository(audit),
    mail,
    tokens,
    rateCounters: new InMemoryRateCounterRepository(),
    mailRequests: new InMemoryMailRequestQueue(tokens, mail, audit),
    invitations: new InMemoryInvitationRepository(users, tokens, mail, audit),
    adminInvitations: new InMemoryAdminInvitationRepository(admins, mail, audit),
    factors,
    signInChallenges,
    webhooks,
    webhookDeliveries: new InMemoryWebhookDeliveryRepository(webhooks, audit),
    identityProviders: new InMemoryIdentityProviderRepository(
      audit,
      () => [externalIdentities, oauthAttempts],
      (providerId) => externalIdentities.heldBy(providerId),
    ),
    externalIdentities,
    oauthAttempts,
    oauthClients: new InMemoryOAuthClientRepository(audit, openIdRecords),
    openIdRecords,
  };
}
