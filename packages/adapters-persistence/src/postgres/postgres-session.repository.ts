import { eq } from 'drizzle-orm';
import type { RefreshToken, Session, SessionRepository, SubjectKind } from '@uas/domain';
import { exchangeable, expiredBefore, liveSessionsOf, prunableSessions, unrevoked } from '../shared/conditions';
import type { PostgresDb } from './postgres-db';
import { refreshTokens, sessions } from './postgres-schema';

export class PostgresSessionRepository implements SessionRepository {
  constructor(private readonly db: PostgresDb) {}

  async create(session: Session, firstToken: RefreshToken): Promise<void> {
    await this.db.transaction(async (tx) => {
      await tx.insert(sessions).values(session);
      await tx.insert(refreshTokens).values(firstToken);
    });
  }

  async findSession(id: string): Promise<Session | null> {
    const [session] = await this.db.select().from(sessions).where(eq(sessions.id, id));
    return session ?? null;
  }

  async findToken(id: string): Promise<RefreshToken | null> {
    const [token] = await this.db.select().from(refreshTokens).where(eq(refreshTokens.id, id));
    return token ?? null;
  }

  async rotate(currentId: string, next: RefreshToken, at: Date): Promise<boolean> {
    // A concurrent rotation waits for this row's lock, then finds it retired and updates nothing.
    return this.db.transaction(async (tx) => {
      const retired = await tx
        .update(refreshTokens)
        .set({ retired: at })
        .where(exchangeable(refreshTokens, currentId))
        .returning({ id: refreshTokens.id });
      if (retired.length === 0) return false;
      await tx.insert(refreshTokens).values(next);
      return true;
    });
  }

  async revokeToken(id: string, at: Date): Promise<void> {
    await this.db.update(refreshTokens).set({ revoked: at }).where(unrevoked(refreshTokens, id));
  }

  async revokeSession(id: string, at: Date): Promise<void> {
    await this.db.update(sessions).set({ revoked: at }).where(unrevoked(sessions, id));
  }

  async revokeSubjectSessions(kind: SubjectKind, subjectId: string, at: Date, keepSessionId?: string): Promise<void> {
    await this.db.update(sessions).set({ revoked: at }).where(liveSessionsOf(sessions, kind, subjectId, keepSessionId));
  }

  async prune(before: Date): Promise<void> {
    await this.db.transaction(async (tx) => {
      await tx.delete(refreshTokens).where(expiredBefore(refreshTokens, before));
      await tx.delete(sessions).where(prunableSessions(sessions, refreshTokens, before));
    });
  }
}
