import { asc, eq } from 'drizzle-orm';
import type { ExportCursor, ImportEntry, ImportPlan, User, UserImportRepository } from '@uas/domain';
import { chunks, exportFilter, INSERT_CHUNK, liveSessionsOfUsers, sharingEmailOrId } from '../shared/user-import';
import type { SqliteDb } from './sqlite-db';
import { sessions, users } from './sqlite-schema';

export class SqliteUserImportRepository implements UserImportRepository {
  constructor(private readonly db: SqliteDb) {}

  async importBatch(
    entries: readonly ImportEntry[],
    decide: (stored: readonly User[]) => ImportPlan,
    { write, now }: { write: boolean; now: Date },
  ): Promise<ImportPlan> {
    // Synchronous and IMMEDIATE: the write lock is taken before the read, so no other writer
    // (another process included) can slip a user in between what the plan saw and what it writes.
    return this.db.transaction(
      (tx) => {
        const plan = decide(tx.select().from(users).where(sharingEmailOrId(users, entries)).all());
        if (!write || plan.failure) return plan;
        for (const chunk of chunks(plan.inserts, INSERT_CHUNK)) tx.insert(users).values(chunk).run();
        for (const { id, ...changes } of plan.updates) tx.update(users).set(changes).where(eq(users.id, id)).run();
        if (plan.endSessions.length > 0) {
          tx.update(sessions).set({ revoked: now }).where(liveSessionsOfUsers(sessions, plan.endSessions)).run();
        }
        return plan;
      },
      { behavior: 'immediate' },
    );
  }

  async exportPage(after: ExportCursor | null, limit: number, emailContains?: string): Promise<User[]> {
    return this.db
      .select()
      .from(users)
      .where(exportFilter(users, after, emailContains, 'like'))
      .orderBy(asc(users.created), asc(users.id))
      .limit(limit)
      .all();
  }
}
