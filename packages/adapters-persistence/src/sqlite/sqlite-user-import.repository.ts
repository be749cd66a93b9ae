import { eq, sql } from 'drizzle-orm';
import type { AuditRecord, ExportCursor, ImportEntry, ImportPlan, User, UserImportRepository } from '@uas/domain';
import { exportPageQuery, sharingEmailOrId } from '../shared/user-import';
import { appendAuditEvent } from './sqlite-audit-trail';
import type { SqliteDb } from './sqlite-db';
import { users } from './sqlite-schema';
import { endUsersSessions } from './sqlite-subject-sessions';

/**
 * Every column of a user row, each filled from the user's field of the same name; but
 * `email_verified`, which may be null, which the column's encoder cannot take: it is given as
 * epoch milliseconds (`verifiedMs`), as the column stores it.
 */
const USER_ROW = {
  ...Object.fromEntries(
    (
      [
        'id',
        'name',
        'email',
        'passwordHash',
        'metadata',
        'app',
        'active',
        'created',
        'updated',
        'version',
      ] as const satisfies readonly (keyof User)[]
    ).map((field) => [field, sql.placeholder(field)]),
  ),
  emailVerified: sql`${sql.placeholder('verifiedMs')}`,
};

export class SqliteUserImportRepository implements UserImportRepository {
  #insertUser: ReturnType<typeof this.prepareInsert> | undefined;

  constructor(private readonly db: SqliteDb) {}

  /**
   * Prepared once (on first use: the table exists only after migration). A million rows through
   * the query builder would spend more time building SQL than running it. Placeholders go
   * through each column's encoder (JSON text, epoch milliseconds) when run.
   */
  private prepareInsert() {
    return this.db
      .insert(users)
      .values(USER_ROW as never)
      .prepare();
  }

  async importBatch(
    entries: readonly ImportEntry[],
    decide: (stored: readonly User[]) => ImportPlan,
    { write, now, audit }: { write: boolean; now: Date; audit?: (plan: ImportPlan) => AuditRecord | null },
  ): Promise<ImportPlan> {
    // Synchronous and IMMEDIATE: the write lock is taken before the read, so no other writer
    // (another process included) can slip a user in between what the plan saw and what it writes.
    return this.db.transaction(
      (tx) => {
        const plan = decide(tx.select().from(users).where(sharingEmailOrId(users, entries)).all());
        if (!write || plan.failure) return plan;
        this.#insertUser ??= this.prepareInsert();
        for (const user of plan.inserts) {
          this.#insertUser.run({ ...user, verifiedMs: user.emailVerified?.getTime() ?? null });
        }
        for (const { id, ...changes } of plan.updates) tx.update(users).set(changes).where(eq(users.id, id)).run();
        if (plan.endSessions.length > 0) {
          endUsersSessions(tx, plan.endSessions, now);
        }
        const event = audit?.(plan);
        if (event) appendAuditEvent(tx, event);
        return plan;
      },
      { behavior: 'immediate' },
    );
  }

  async exportPage(after: ExportCursor | null, limit: number, emailContains?: string): Promise<User[]> {
    return exportPageQuery(this.db.select().from(users).$dynamic(), users, { after, limit, emailContains }).all();
  }
}
