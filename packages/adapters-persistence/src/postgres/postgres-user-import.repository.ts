import { eq } from 'drizzle-orm';
import type { AuditRecord, ExportCursor, ImportEntry, ImportPlan, User, UserImportRepository } from '@uas/domain';
import { chunks, exportPageQuery, INSERT_CHUNK, liveSessionsOfUsers, sharingEmailOrId } from '../shared/user-import';
import { takeTurns } from './postgres-advisory-lock';
import { appendAuditEvent } from './postgres-audit-trail';
import type { PostgresDb } from './postgres-db';
import { sessions, users } from './postgres-schema';

/** Held for the length of one batch: imports take turns, so each plans over what the others wrote. */
const IMPORT_LOCK = 'uas:user-import';

export class PostgresUserImportRepository implements UserImportRepository {
  constructor(private readonly db: PostgresDb) {}

  async importBatch(
    entries: readonly ImportEntry[],
    decide: (stored: readonly User[]) => ImportPlan,
    { write, now, audit }: { write: boolean; now: Date; audit?: (plan: ImportPlan) => AuditRecord | null },
  ): Promise<ImportPlan> {
    if (!write) return decide(await this.db.select().from(users).where(sharingEmailOrId(users, entries)));
    return this.db.transaction(async (tx) => {
      await takeTurns(tx, IMPORT_LOCK);
      // Rows the plan may change are locked, so an API update cannot interleave with it; an API
      // create of the same email makes the insert fail (EmailTakenError), and the batch with it.
      const plan = decide(await tx.select().from(users).where(sharingEmailOrId(users, entries)).for('update'));
      if (plan.failure) return plan;
      for (const chunk of chunks(plan.inserts, INSERT_CHUNK)) await tx.insert(users).values(chunk);
      for (const { id, ...changes } of plan.updates) await tx.update(users).set(changes).where(eq(users.id, id));
      if (plan.endSessions.length > 0) {
        await tx.update(sessions).set({ revoked: now }).where(liveSessionsOfUsers(sessions, plan.endSessions));
      }
      const event = audit?.(plan);
      if (event) await appendAuditEvent(tx, event);
      return plan;
    });
  }

  async exportPage(after: ExportCursor | null, limit: number, emailContains?: string): Promise<User[]> {
    return exportPageQuery(this.db.select().from(users).$dynamic(), users, { after, limit, emailContains });
  }
}
