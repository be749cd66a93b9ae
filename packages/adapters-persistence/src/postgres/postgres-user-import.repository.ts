import { eq, sql, type Column, type SQL } from 'drizzle-orm';
import type { AuditRecord, ExportCursor, ImportEntry, ImportPlan, User, UserImportRepository } from '@uas/domain';
import { chunks, exportPageQuery, INSERT_CHUNK } from '../shared/user-import';
import { takeTurns } from './postgres-advisory-lock';
import { appendAuditEvent } from './postgres-audit-trail';
import type { PostgresDb, PostgresTx } from './postgres-db';
import { users } from './postgres-schema';
import { endUsersSessions } from './postgres-subject-sessions';

/** The id of the user whose `column` holds each of `values`: one probe of the column's unique index per value. */
function idsByIndex(column: Column, values: readonly string[]): SQL {
  // LIMIT 1 (each column is unique anyway) keeps the lookup a probe per value: the planner may
  // not fold it into a join, which it could answer by reading the whole table.
  return sql`select found.id from unnest(${sql.param(values)}::text[]) as wanted(value)
    cross join lateral (select ${users.id} as id from ${users} where ${column} = wanted.value limit 1) as found`;
}

/**
 * The stored users sharing an email or an id with an entry, found by probing the unique indexes,
 * so a batch costs the same at any table size. Not `email IN ($1…$1000) OR id IN (…)`: PostgreSQL
 * plans that as a scan of the whole table once it looks cheaper than 2,000 probes, and with a
 * cached generic plan tests each row against the lists one value at a time, so a batch of the
 * 1,000,000-user import ran past the statement timeout at about 240,000 users (issue 29).
 * Exported for the plan tests.
 */
export function selectSharingEmailOrId(db: PostgresDb | PostgresTx, entries: readonly ImportEntry[]) {
  const emails = idsByIndex(
    users.email,
    entries.map((entry) => entry.user.email),
  );
  const ids = idsByIndex(
    users.id,
    entries.map((entry) => entry.user.id),
  );
  return db.select().from(users).where(sql`${users.id} in (${emails} union all ${ids})`);
}

/** Held for the length of one batch: imports take turns, so each plans over what the others wrote. */
const IMPORT_LOCK = 'uas:user-import';

export class PostgresUserImportRepository implements UserImportRepository {
  constructor(private readonly db: PostgresDb) {}

  async importBatch(
    entries: readonly ImportEntry[],
    decide: (stored: readonly User[]) => ImportPlan,
    { write, now, audit }: { write: boolean; now: Date; audit?: (plan: ImportPlan) => AuditRecord | null },
  ): Promise<ImportPlan> {
    if (!write) return decide(await selectSharingEmailOrId(this.db, entries));
    return this.db.transaction(async (tx) => {
      await takeTurns(tx, IMPORT_LOCK);
      // Rows the plan may change are locked, so an API update cannot interleave with it; an API
      // create of the same email makes the insert fail (EmailTakenError), and the batch with it.
      const plan = decide(await selectSharingEmailOrId(tx, entries).for('update'));
      if (plan.failure) return plan;
      for (const chunk of chunks(plan.inserts, INSERT_CHUNK)) await tx.insert(users).values(chunk);
      for (const { id, ...changes } of plan.updates) await tx.update(users).set(changes).where(eq(users.id, id));
      if (plan.endSessions.length > 0) {
        await endUsersSessions(tx, plan.endSessions, now);
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
