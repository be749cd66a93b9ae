import { and, asc, desc, eq, isNull, sql, type SQL } from 'drizzle-orm';
import {
  isUserLogin,
  type AuditRecord,
  type RefreshToken,
  type Session,
  type SessionRepository,
  type SubjectKind,
  type VerifiedAccount,
} from '@uas/domain';
import {
  currentTokensOf,
  exchangeable,
  expiredBefore,
  inGoodStanding,
  liveSessionsOf,
  prunableSessions,
  stillVerified,
  unexpiredSessionsOf,
  unrevoked,
} from '../shared/conditions';
import { countOnDay } from './sqlite-activity.repository';
import { appendAuditEvent, writeWithAudit } from './sqlite-audit-trail';
import type { SqliteDb } from './sqlite-db';
import { admins, refreshTokens, sessions, users } from './sqlite-schema';
import { preparedOnUse } from './prepared-on-use';

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

  constructor(private readonly db: SqliteDb) {}

  async create(
    session: Session,
    firstToken: RefreshToken,
    verified: VerifiedAccount,
    audit?: AuditRecord,
  ): Promise<boolean> {
    // IMMEDIATE: the account is read under the write lock, so a change to it, which ends its
    // sessions under that lock too, commits either before this read or after this insert.
    return this.db.transaction(
      (tx) => {
        const id = session.subjectId;
        const account =
          session.kind === 'admin'
            ? tx
                .select({ id: admins.id })
                .from(admins)
                .where(stillVerified(admins, id, verified))
                .get()
            : tx
                .select({ id: users.id })
                .from(users)
                .where(stillVerified(users, id, verified, inGoodStanding(users, session.created)))
                .get();
        if (!account) return false;
        tx.insert(sessions).values(session).run();
        tx.insert(refreshTokens).values(firstToken).run();
        if (isUserLogin(session)) {
          tx.update(users).set({ lastLogin: session.created }).where(eq(users.id, id)).run();
          countOnDay(tx, session.created, 'logins');
        }
        if (audit) appendAuditEvent(tx, audit);
        return true;
      },
      { behavior: 'immediate' },
    );
  }

  async findSession(id: string): Promise<Session | null> {
    return this.sessionById().get({ id }) ?? null;
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
    // IMMEDIATE: the session is read under the write lock, so its end cannot slip in before the write.
    return this.db.transaction(
      (tx) => {
        if (!tx.select({ id: sessions.id }).from(sessions).where(unrevoked(sessions, next.sessionId)).get())
          return false;
        const retired = tx
          .update(refreshTokens)
          .set({ retired: at })
          .where(exchangeable(refreshTokens, currentId))
          .run();
        if (retired.changes === 0) return false;
        tx.insert(refreshTokens).values(next).run();
        tx.update(sessions).set({ lastUsed: at, expires: next.expires }).where(eq(sessions.id, next.sessionId)).run();
        return true;
      },
      { behavior: 'immediate' },
    );
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
    this.revokeSessionsWhere(liveSessionsOf(sessions, kind, subjectId, keepSessionId), at, audit);
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
