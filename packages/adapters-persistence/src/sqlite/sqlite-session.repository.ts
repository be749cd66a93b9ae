import { and, asc, desc, eq, isNull, type Placeholder, sql, type SQL } from 'drizzle-orm';
import {
  dayOf,
  isUserLogin,
  type AdminRole,
  type AuditRecord,
  type RefreshToken,
  type Session,
  type SessionRepository,
  type SessionWithAccount,
  type SubjectKind,
  type VerifiedAccount,
} from '@uas/domain';
import {
  currentTokensOf,
  exchangeable,
  expiredBefore,
  inGoodStanding,
  prunableSessions,
  unexpiredSessionsOf,
  unrevoked,
} from '../shared/conditions';
import { dayCount } from './sqlite-activity.repository';
import { appendAuditEvent, writeWithAudit } from './sqlite-audit-trail';
import type { SqliteDb } from './sqlite-db';
import type { SqliteGroupCommit } from './sqlite-group-commit';
import { admins, refreshTokens, sessions, users } from './sqlite-schema';
import { endSubjectSessions } from './sqlite-subject-sessions';
import { preparedOnUse } from './prepared-on-use';

/**
 * A session, whether its account (in the table of the session's kind) exists, is active and is
 * not banned at `now` (epoch milliseconds), and an admin's role: the check of every access token,
 * and of every admin request's permission, in one statement. Exported for the query plan tests.
 *
 * The admin is read by correlated subqueries, not by a left join: SQLite recompiled
 * the joined statement at every call (about ten times the instructions of running it).
 */
export function selectSessionWithAccount(db: SqliteDb) {
  const ofAdminSession = sql`${sessions.kind} = 'admin' and ${admins.id} = ${sessions.subjectId}`;
  return db
    .select({
      session: sessions,
      accountActive: sql<boolean>`case when ${sessions.kind} = 'admin'
        then exists (select 1 from ${admins} where ${ofAdminSession})
        else exists (select 1 from ${users} where ${users.id} = ${sessions.subjectId}
          and ${inGoodStanding(users, sql.placeholder('now'))}) end`.mapWith(Boolean),
      role: sql<AdminRole | null>`(select ${admins.role} from ${admins} where ${ofAdminSession})`,
    })
    .from(sessions)
    .where(eq(sessions.id, sql.placeholder('id')));
}

// better-sqlite3 runs a transaction synchronously: its callbacks must never await.
export class SqliteSessionRepository implements SessionRepository {
  // Every request with an access token looks its session up.
  private readonly sessionById = preparedOnUse(() =>
    this.db
      .select()
      .from(sessions)
      .where(eq(sessions.id, sql.placeholder('id')))
      .prepare(),
  );
  private readonly sessionWithAccount = preparedOnUse(() => selectSessionWithAccount(this.db).prepare());

  // Every sign-in opens a session: its statements prepared once, not built per call. A nullable
  // time goes as epoch milliseconds (raw SQL, not the column's mapping, which refuses null).
  private readonly opening = preparedOnUse(() => {
    const accountOf = <Accounts extends typeof users | typeof admins>(accounts: Accounts, ...more: SQL[]) =>
      this.db
        .select({ id: accounts.id })
        .from(accounts)
        .where(
          and(
            eq(accounts.id, sql.placeholder('id')),
            eq(accounts.email, sql.placeholder('email')),
            eq(accounts.passwordHash, sql.placeholder('passwordHash')),
            ...more,
          ),
        )
        .prepare();
    return {
      // A placeholder's value reaches the driver as it is: the time goes as epoch milliseconds.
      user: accountOf(users, inGoodStanding(users, sql.placeholder('at'))),
      admin: accountOf(admins),
      session: this.db
        .insert(sessions)
        .values({
          ...placeholdersOf([
            'id',
            'kind',
            'subjectId',
            'created',
            'lastUsed',
            'expires',
            'clientAddress',
            'userAgent',
            'amr',
            'impersonatorId',
          ]),
          revoked: sql`${sql.placeholder('revoked')}`,
        })
        .prepare(),
      token: this.db
        .insert(refreshTokens)
        .values({
          ...placeholdersOf(['id', 'sessionId', 'issued', 'expires']),
          retired: sql`${sql.placeholder('retired')}`,
          revoked: sql`${sql.placeholder('revoked')}`,
        })
        .prepare(),
      lastLogin: this.db
        .update(users)
        .set({ lastLogin: sql`${sql.placeholder('at')}` })
        .where(eq(users.id, sql.placeholder('id')))
        .prepare(),
      login: dayCount(this.db, 'logins').prepare(),
    };
  });

  constructor(
    private readonly db: SqliteDb,
    private readonly writes: SqliteGroupCommit,
  ) {}

  async create(
    session: Session,
    firstToken: RefreshToken,
    verified: VerifiedAccount,
    audit?: AuditRecord,
  ): Promise<boolean> {
    // In the group's IMMEDIATE transaction (see SqliteGroupCommit): the account is read under the
    // write lock, so a change to it, which ends its sessions under that lock too, commits either
    // before this read or after this insert. Sign-ins arriving together share one commit (one
    // fsync); each answers once it is on disk.
    return this.writes.run((tx) => {
      const statements = this.opening();
      const id = session.subjectId;
      const { email, passwordHash } = verified;
      const account = statements[session.kind].get({ id, email, passwordHash, at: session.created.getTime() });
      if (!account) return false;
      statements.session.run({ ...session, revoked: session.revoked?.getTime() ?? null });
      statements.token.run({
        ...firstToken,
        retired: firstToken.retired?.getTime() ?? null,
        revoked: firstToken.revoked?.getTime() ?? null,
      });
      if (isUserLogin(session)) {
        statements.lastLogin.run({ id, at: session.created.getTime() });
        statements.login.run({ day: dayOf(session.created) });
      }
      if (audit) appendAuditEvent(tx, audit);
      return true;
    });
  }

  async findSession(id: string): Promise<Session | null> {
    return this.sessionById().get({ id }) ?? null;
  }

  async findSessionWithAccount(id: string, kind: SubjectKind, now: Date): Promise<SessionWithAccount | null> {
    const found = this.sessionWithAccount().get({ id, now: now.getTime() });
    return found?.session.kind === kind ? found : null;
  }

  async findToken(id: string): Promise<RefreshToken | null> {
    return this.db.select().from(refreshTokens).where(eq(refreshTokens.id, id)).get() ?? null;
  }

  async findCurrentToken(sessionId: string, now: Date): Promise<RefreshToken | null> {
    const current = this.db
      .select({ token: refreshTokens })
      .from(refreshTokens)
      .innerJoin(sessions, eq(sessions.id, refreshTokens.sessionId))
      .where(and(currentTokensOf(refreshTokens, sessionId, now), isNull(sessions.revoked)))
      .orderBy(desc(refreshTokens.issued))
      .limit(1)
      .get();
    return current?.token ?? null;
  }

  async rotate(currentId: string, next: RefreshToken, at: Date): Promise<boolean> {
    // In the group's IMMEDIATE transaction, as a session's opening: the session is read under the
    // write lock, so its end cannot slip in before the write.
    return this.writes.run((tx) => {
      if (!tx.select({ id: sessions.id }).from(sessions).where(unrevoked(sessions, next.sessionId)).get()) return false;
      const retired = tx.update(refreshTokens).set({ retired: at }).where(exchangeable(refreshTokens, currentId)).run();
      if (retired.changes === 0) return false;
      tx.insert(refreshTokens).values(next).run();
      tx.update(sessions).set({ lastUsed: at, expires: next.expires }).where(eq(sessions.id, next.sessionId)).run();
      return true;
    });
  }

  async revokeToken(id: string, at: Date, audit?: AuditRecord): Promise<void> {
    writeWithAudit(
      this.db,
      audit,
      (tx) => tx.update(refreshTokens).set({ revoked: at }).where(unrevoked(refreshTokens, id)).run().changes > 0,
    );
  }

  async revokeSession(id: string, at: Date, audit?: AuditRecord): Promise<void> {
    this.revokeSessionsWhere(unrevoked(sessions, id), at, audit);
  }

  async listLive(kind: SubjectKind, subjectId: string, now: Date, limit: number): Promise<Session[]> {
    return this.db
      .select()
      .from(sessions)
      .where(unexpiredSessionsOf(sessions, kind, subjectId, now))
      .orderBy(desc(sessions.lastUsed), asc(sessions.id))
      .limit(limit)
      .all();
  }

  async revokeSubjectSession(
    kind: SubjectKind,
    subjectId: string,
    sessionId: string,
    at: Date,
    audit?: AuditRecord,
  ): Promise<boolean> {
    return this.revokeSessionsWhere(unexpiredSessionsOf(sessions, kind, subjectId, at, sessionId), at, audit);
  }

  async revokeSubjectSessions(
    kind: SubjectKind,
    subjectId: string,
    at: Date,
    keepSessionId?: string,
    audit?: AuditRecord,
  ): Promise<void> {
    this.db.transaction(
      (tx) => {
        if (endSubjectSessions(tx, kind, subjectId, at, keepSessionId) && audit) appendAuditEvent(tx, audit);
      },
      { behavior: 'immediate' },
    );
  }

  /** Ends the sessions `where` picks at `at`; true, and `audit` appended, when any was live. */
  private revokeSessionsWhere(where: SQL | undefined, at: Date, audit: AuditRecord | undefined): boolean {
    return writeWithAudit(
      this.db,
      audit,
      (tx) => tx.update(sessions).set({ revoked: at }).where(where).run().changes > 0,
    );
  }

  async prune(before: Date): Promise<void> {
    this.db.transaction((tx) => {
      tx.delete(refreshTokens).where(expiredBefore(refreshTokens, before)).run();
      tx.delete(sessions)
        .where(prunableSessions(sessions, refreshTokens, before))
        .run();
    });
  }
}

/** `{ key: placeholder(key) }` for each of `keys`: values mapped to the driver by their columns. */
function placeholdersOf<const Key extends string>(keys: readonly Key[]): Record<Key, Placeholder<Key>> {
  return Object.fromEntries(keys.map((key) => [key, sql.placeholder(key)])) as Record<Key, Placeholder<Key>>;
}
