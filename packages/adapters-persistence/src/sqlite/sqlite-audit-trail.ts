import { asc, count, eq, gt, lt, lte } from 'drizzle-orm';
import {
  chainLength,
  sealAuditEvent,
  type AuditChainState,
  type AuditEvent,
  type AuditPage,
  type AuditQuery,
  type AuditFilters,
  type AuditRecord,
  type AuditTrail,
} from '@uas/domain';
import {
  auditChainState,
  auditEventOf,
  auditEventRow,
  auditFilter,
  isUnfiltered,
  NEW_AUDIT_CHAIN,
  newestFirst,
} from '../shared/audit-rows';
import type { SqliteDb } from './sqlite-db';
import { auditChain, auditEvents } from './sqlite-schema';

/**
 * Appends `record` as the next event of the chain, inside the caller's transaction, which must
 * be IMMEDIATE: it holds the database's write lock, so no other append (from any connection or
 * process) reads the same head. Synchronous, as better-sqlite3 transactions are.
 */
export function appendAuditEvent(tx: SqliteDb, record: AuditRecord): AuditEvent {
  return appendAuditEvents(tx, [record])[0]!;
}

/**
 * Appends `records` as the next events of the chain, in order, as appendAuditEvent does one: the
 * head read and written once, the events inserted in one statement (a worker's round of many).
 */
export function appendAuditEvents(tx: SqliteDb, records: readonly AuditRecord[]): AuditEvent[] {
  if (records.length === 0) return [];
  const [head] = tx
    .insert(auditChain)
    .values(NEW_AUDIT_CHAIN)
    .onConflictDoUpdate({ target: auditChain.id, set: { id: 1 } })
    .returning({ seq: auditChain.headSeq, hash: auditChain.headHash })
    .all();
  let previous = head!;
  const events = records.map((record) => (previous = sealAuditEvent(record, previous)));
  tx.insert(auditEvents).values(events.map(auditEventRow)).run();
  tx.update(auditChain).set({ headSeq: previous.seq, headHash: previous.hash }).where(eq(auditChain.id, 1)).run();
  return events;
}

/** Runs `write` in an IMMEDIATE transaction and appends `audit` when `write` says it changed something. */
export function writeWithAudit(
  db: SqliteDb,
  audit: AuditRecord | undefined,
  write: (tx: SqliteDb) => boolean,
): boolean {
  if (!audit) return write(db);
  return db.transaction(
    (tx) => {
      const wrote = write(tx);
      if (wrote) appendAuditEvent(tx, audit);
      return wrote;
    },
    { behavior: 'immediate' },
  );
}

export class SqliteAuditTrail implements AuditTrail {
  constructor(private readonly db: SqliteDb) {}

  async append(record: AuditRecord): Promise<AuditEvent> {
    return this.db.transaction((tx) => appendAuditEvent(tx, record), { behavior: 'immediate' });
  }

  async list({ page, size, ...filters }: AuditQuery): Promise<AuditPage> {
    // One read transaction, so the page and the total describe the same moment.
    return this.db.transaction((tx) => {
      // Unfiltered, the total is the chain's length: no count over the table.
      const total = isUnfiltered(filters)
        ? chainLength(auditChainState(tx.select().from(auditChain).get()))
        : (selectAuditTotal(tx, filters).get()?.total ?? 0);
      const rows = selectAuditPage(tx, filters, (page - 1) * size, size).all();
      return { events: rows.map(auditEventOf), total };
    });
  }

  async state(): Promise<AuditChainState> {
    return auditChainState(this.db.select().from(auditChain).get());
  }

  async chain(afterSeq: number, limit: number): Promise<AuditEvent[]> {
    return this.db
      .select()
      .from(auditEvents)
      .where(gt(auditEvents.seq, afterSeq))
      .orderBy(asc(auditEvents.seq))
      .limit(limit)
      .all()
      .map(auditEventOf);
  }

  async prune(before: Date): Promise<number> {
    return this.db.transaction(
      (tx) => {
        const cut = auditChainState(tx.select().from(auditChain).get()).cut;
        const last = selectLastBefore(tx, before).get();
        if (!last || last.seq <= cut.seq) return 0;
        const removed = tx.delete(auditEvents).where(lte(auditEvents.seq, last.seq)).run().changes;
        tx.update(auditChain).set({ cutSeq: last.seq, cutHash: last.hash }).where(eq(auditChain.id, 1)).run();
        return removed;
      },
      { behavior: 'immediate' },
    );
  }
}

/** A page of the newest matching events. Exported for the query plan tests. */
export function selectAuditPage(db: SqliteDb, filters: AuditFilters, offset: number, limit: number) {
  return db
    .select()
    .from(auditEvents)
    .where(auditFilter(auditEvents, filters))
    .orderBy(...newestFirst(auditEvents))
    .limit(limit)
    .offset(offset);
}

/** The number of matching events, counted in the filter's index range. Exported for the plan tests. */
export function selectAuditTotal(db: SqliteDb, filters: AuditFilters) {
  return db.select({ total: count() }).from(auditEvents).where(auditFilter(auditEvents, filters));
}

/** The newest event older than `before`: pruning removes it and every event before it. Exported for the plan tests. */
export function selectLastBefore(db: SqliteDb, before: Date) {
  return db
    .select({ seq: auditEvents.seq, hash: auditEvents.hash })
    .from(auditEvents)
    .where(lt(auditEvents.time, before))
    .orderBy(...newestFirst(auditEvents))
    .limit(1);
}
