import { and, asc, desc, eq, isNull, sql, type Placeholder, type SQL } from 'drizzle-orm';
import {
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
  stillVerified,
  unexpiredSessionsOf,
  unrevoked,
} from '../shared/conditions';
import { countOnDay } from './postgres-activity.repository';
import { appendAuditEvent, writeWithAudit } from './postgres-audit-trail';
import type { PostgresDb } from './postgres-db';
import { admins, refreshTokens, sessions, users } from './postgres-schema';
import { endSubjectSessions } from './postgres-subject-sessions';

/**
 * A session read for an admin's request, with the admin's role (null when the admin is gone): the
 * check of every admin request's token and permission, in one statement.
 * A statement per kind, by primary keys: behind a pooler, without prepared statements, PostgreSQL
 * plans every call, and one statement for both kinds cost it about twice the CPU of either (115 µs
 * a call against 53 and 67, unprepared). The caller checks the session's kind: as a condition of
 * the statement, the planner could pick the index of a kind's sessions over the primary key.
 * Exported for the query plan tests.
 */
export function selectAdminSession(db: PostgresDb, id: string | Placeholder) {
  return db
    .select({
      session: sessions,
      role: sql<AdminRole | null>`(select ${admins.role} from ${admins} where ${admins.id} = ${sessions.subjectId})`,
    })
    .from(sessions)
    .where(eq(sessions.id, id));
}

/**
 * A session read for a user's request, and whether its user exists, is active and is not banned
 * at `now` (see selectAdminSession).
 */
export function selectUserSession(db: PostgresDb, id: string | Placeholder, now: Date | Placeholder) {
  return db
    .select({
      session: sessions,
      accountActive: sql<boolean>`exists (select 1 from ${users} where ${users.id} = ${sessions.subjectId}
        and ${inGoodStanding(users, now)})`,
    })
    .from(sessions)
    .where(eq(sessions.id, id));
}

export class PostgresSessionRepository implements SessionRepository {
  // Prepared once: the statements every authenticated request runs, built without Drizzle's
  // query builder at each call.
  private readonly sessionById;
  private readonly adminSession;
  private readonly userSession;

  constructor(private readonly db: PostgresDb) {
    this.sessionById = db
      .select()
      .from(sessions)
      .where(eq(sessions.id, sql.placeholder('id')))
      .prepare('session_by_id');
    this.adminSession = selectAdminSession(db, sql.placeholder('id')).prepare('admin_session');
    this.userSession = selectUserSession(db, sql.placeholder('id'), sql.placeholder('now')).prepare('user_session');
  }

  async create(
    session: Session,
    firstToken: RefreshToken,
    verified: VerifiedAccount,
    audit?: AuditRecord,
  ): Promise<boolean> {
    // The account row is held: a change to it (which locks it FOR UPDATE) either committed
    // first, and this read sees the new row, or waits for this insert to commit and then ends the
    // new session with the others. A user's row is held FOR NO KEY UPDATE, since this writes its
    // last login: two logins of one user queue here instead of deadlocking on that write.
    return this.db.transaction(async (tx) => {
      const id = session.subjectId;
      const [account] = await (session.kind === 'admin'
        ? tx
            .select({ id: admins.id })
            .from(admins)
            .where(stillVerified(admins, id, verified))
            .for('share')
        : tx
            .select({ id: users.id })
            .from(users)
            .where(stillVerified(users, id, verified, inGoodStanding(users, session.created)))
            .for('no key update'));
      if (!account) return false;
      await tx.insert(sessions).values(session);
      await tx.insert(refreshTokens).values(firstToken);
      if (isUserLogin(session)) {
        await tx.update(users).set({ lastLogin: session.created }).where(eq(users.id, id));
        // Last: every login of the day queues on this row, so it is held only until the commit.
        await countOnDay(tx, session.created, 'logins');
      }
      if (audit) await appendAuditEvent(tx, audit);
      return true;
    });
  }

  async findSession(id: string): Promise<Session | null> {
    const [session] = await this.sessionById.execute({ id });
    return session ?? null;
  }

  async findSessionWithAccount(id: string, kind: SubjectKind, now: Date): Promise<SessionWithAccount | null> {
    if (kind === 'admin') {
      const [found] = await this.adminSession.execute({ id });
      return found?.session.kind === kind
        ? { session: found.session, accountActive: found.role !== null, role: found.role }
        : null;
    }
    // A placeholder's value reaches the driver as it is: the timestamp goes as the column writes it.
    const [found] = await this.userSession.execute({ id, now: now.toISOString() });
    return found?.session.kind === kind ? { ...found, role: null } : null;
  }

  async findToken(id: string): Promise<RefreshToken | null> {
    const [token] = await this.db.select().from(refreshTokens).where(eq(refreshTokens.id, id));
    return token ?? null;
  }

  async findCurrentToken(sessionId: string, now: Date): Promise<RefreshToken | null> {
    const [current] = await this.db
      .select({ token: refreshTokens })
      .from(refreshTokens)
      .innerJoin(sessions, eq(sessions.id, refreshTokens.sessionId))
      .where(and(currentTokensOf(refreshTokens, sessionId, now), isNull(sessions.revoked)))
      .orderBy(desc(refreshTokens.issued))
      .limit(1);
    return current?.token ?? null;
  }

  async rotate(currentId: string, next: RefreshToken, at: Date): Promise<boolean> {
    // The session row is held FOR NO KEY UPDATE (this rotation writes its last use): a change
    // that ends the session (an UPDATE of that row) waits for this rotation to commit, or this
    // rotation waits for it and then finds it ended. A concurrent rotation of the same session
    // waits here, then finds the token retired and updates nothing.
    return this.db.transaction(async (tx) => {
      const [live] = await tx
        .select({ id: sessions.id })
        .from(sessions)
        .where(unrevoked(sessions, next.sessionId))
        .for('no key update');
      if (!live) return false;
      const retired = await tx
        .update(refreshTokens)
        .set({ retired: at })
        .where(exchangeable(refreshTokens, currentId))
        .returning({ id: refreshTokens.id });
      if (retired.length === 0) return false;
      await tx.insert(refreshTokens).values(next);
      await tx.update(sessions).set({ lastUsed: at, expires: next.expires }).where(eq(sessions.id, next.sessionId));
      return true;
    });
  }

  async revokeToken(id: string, at: Date, audit?: AuditRecord): Promise<void> {
    await writeWithAudit(
      this.db,
      audit,
      async (tx) => (await tx.update(refreshTokens).set({ revoked: at }).where(unrevoked(refreshTokens, id))).count > 0,
    );
  }

  async revokeSession(id: string, at: Date, audit?: AuditRecord): Promise<void> {
    await this.revokeSessionsWhere(unrevoked(sessions, id), at, audit);
  }

  async listLive(kind: SubjectKind, subjectId: string, now: Date, limit: number): Promise<Session[]> {
    return this.db
      .select()
      .from(sessions)
      .where(unexpiredSessionsOf(sessions, kind, subjectId, now))
      .orderBy(desc(sessions.lastUsed), asc(sessions.id))
      .limit(limit);
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
    await this.db.transaction(async (tx) => {
      if ((await endSubjectSessions(tx, kind, subjectId, at, keepSessionId)) && audit)
        await appendAuditEvent(tx, audit);
    });
  }

  /** Ends the sessions `where` picks at `at`; true, and `audit` appended, when any was live. */
  private revokeSessionsWhere(where: SQL | undefined, at: Date, audit: AuditRecord | undefined): Promise<boolean> {
    return writeWithAudit(
      this.db,
      audit,
      async (tx) => (await tx.update(sessions).set({ revoked: at }).where(where)).count > 0,
    );
  }

  async prune(before: Date): Promise<void> {
    await this.db.transaction(async (tx) => {
      await tx.delete(refreshTokens).where(expiredBefore(refreshTokens, before));
      await tx.delete(sessions).where(prunableSessions(sessions, refreshTokens, before));
    });
  }
}
