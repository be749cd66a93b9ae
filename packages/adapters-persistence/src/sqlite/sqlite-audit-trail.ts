import { asc, count, eq, getTableColumns, gt, lt, lte, sql } from 'drizzle-orm';
import {
  chainLength,
  sealAuditEvents,
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
  auditPendingRow,
  auditRecordOf,
  isUnfiltered,
  NEW_AUDIT_CHAIN,
  newestFirst,
} from '../shared/audit-rows';
import { SEQUENCE_BATCH, type AuditSequencer, type ChainingPass } from '../shared/audit-sequencer';
import { placeholdersOf } from '../shared/placeholders';
import { preparedPerConnection } from './prepared-on-use';
import { sessionOf, type SqliteDb } from './sqlite-db';
import type { GroupAudit } from './sqlite-group-commit';
import { auditChain, auditEvents, auditPending } from './sqlite-schema';

/**
 * The statements of every audited write and of the chaining after it, prepared once per
 * connection: built at every call, they were a tenth of a PATCH's time on SQLite. Rows go one
 * statement each, which a prepared statement inside one transaction makes as cheap as one
 * statement of many rows.
 */
const statements = preparedPerConnection((db) => ({
  wait: db
    .insert(auditPending)
    .values(placeholdersOf(getTableColumns(auditPending)))
    .prepare(),
  waiting: db.select().from(auditPending).orderBy(sql`rowid`).limit(SEQUENCE_BATCH).prepare(),
  head: db
    .insert(auditChain)
    .values(NEW_AUDIT_CHAIN)
    .onConflictDoUpdate({ target: auditChain.id, set: { id: 1 } })
    .returning({ seq: auditChain.headSeq, hash: auditChain.headHash })
    .prepare(),
  chain: db
    .insert(auditEvents)
    .values(placeholdersOf(getTableColumns(auditEvents)))
    .prepare(),
  chained: db
    .delete(auditPending)
    .where(eq(auditPending.id, sql.placeholder('id')))
    .prepare(),
  moveHead: db
    .update(auditChain)
    .set({ headSeq: sql`${sql.placeholder('seq')}`, headHash: sql`${sql.placeholder('hash')}` })
    .where(eq(auditChain.id, 1))
    .prepare(),
}));

/**
 * Records `record` in the caller's transaction, so it commits or rolls back with the change, as
 * an event waiting for its place in the chain (see AuditSequencer): one small row, rather than
 * the chain's head read and written by every write. Synchronous, as better-sqlite3 transactions are.
 */
export function appendAuditEvent(tx: SqliteDb, record: AuditRecord): void {
  appendAuditEvents(tx, [record]);
}

/** Records `records` as appendAuditEvent does one (a worker's round of many). */
export function appendAuditEvents(tx: SqliteDb, records: readonly AuditRecord[]): void {
  const held = heldByGroup.get(sessionOf(tx));
  // Held as audit_pending would give it back: a record that cannot be stored (its changes not
  // JSON) fails its own write, not the group's chaining, and the hash sealed is that of the
  // changes as the chain stores them.
  if (held) held.push(...records.map((record) => auditRecordOf(auditPendingRow(record))));
  else waitForChain(tx, records);
}

function waitForChain(tx: SqliteDb, records: readonly AuditRecord[]): void {
  const { wait } = statements(tx);
  for (const record of records) wait.run({ ...auditPendingRow(record) });
}

/**
 * Per connection, the events recorded by the writes of the group commit under way on it, held
 * in memory until its transaction chains them: each waiting in audit_pending meant an insert, a
 * read and a delete of its row in that same transaction, a tenth of a SQLite PATCH's time.
 */
const heldByGroup = new WeakMap<object, AuditRecord[]>();

/** The audit side of the group commit (see GroupAudit). */
export const groupAudit: GroupAudit = {
  hold(tx) {
    const held: AuditRecord[] = [];
    heldByGroup.set(sessionOf(tx), held);
    return held;
  },
  release: (tx) => void heldByGroup.delete(sessionOf(tx)),
  chain(tx, held) {
    // Those waiting committed before the group's transaction began: they come first.
    chainAllWaitingEvents(tx);
    if (held.length > 0) chainAfterHead(tx, held);
  },
  wait: waitForChain,
};

/** Seals `records` after the chain's head, in their order, inserts them and moves the head. */
function chainAfterHead(tx: SqliteDb, records: readonly AuditRecord[]): AuditEvent[] {
  const { head, chain, moveHead } = statements(tx);
  const events = sealAuditEvents(records, head.get()!);
  for (const event of events) chain.run({ ...auditEventRow(event) });
  const last = events.at(-1)!;
  moveHead.run({ seq: last.seq, hash: last.hash });
  return events;
}

/**
 * Chains the oldest waiting events after the head, in the order they were recorded (their rowids:
 * each insert takes one above the largest waiting; times can be equal, ids are random), inside the
 * caller's IMMEDIATE transaction (which holds the database's one write lock, so passes on every
 * connection take turns). Answers how many it chained.
 */
function chainWaitingEvents(tx: SqliteDb): number {
  const { waiting, chained } = statements(tx);
  const rows = waiting.all();
  if (rows.length === 0) return 0;
  for (const event of chainAfterHead(tx, rows.map(auditRecordOf))) chained.run({ id: event.id });
  return rows.length;
}

/** Chains every event waiting, inside the caller's IMMEDIATE transaction. */
function chainAllWaitingEvents(tx: SqliteDb): void {
  while (chainWaitingEvents(tx) === SEQUENCE_BATCH);
}

export function sqliteChainingPass(db: SqliteDb): ChainingPass {
  return {
    hasPending: async () => db.select({ id: auditPending.id }).from(auditPending).limit(1).get() !== undefined,
    // SQLite's busy timeout is the wait: a pass never gives up on the lock.
    chain: async () => db.transaction(chainWaitingEvents, { behavior: 'immediate' }),
  };
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
  constructor(
    private readonly db: SqliteDb,
    private readonly sequencer: AuditSequencer,
  ) {}

  async append(record: AuditRecord): Promise<AuditEvent> {
    // Alone, an event is chained at once, with those waiting before it, in its own transaction.
    return this.db.transaction(
      (tx) => {
        appendAuditEvent(tx, record);
        chainAllWaitingEvents(tx);
        return auditEventOf(tx.select().from(auditEvents).where(eq(auditEvents.id, record.id)).get()!);
      },
      { behavior: 'immediate' },
    );
  }

  async list({ page, size, ...filters }: AuditQuery): Promise<AuditPage> {
    // What was recorded before the call is listed.
    await this.sequencer.sequence();
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
    // The chain as it stands once every event recorded before the call has its place.
    await this.sequencer.sequence();
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
    // Every event recorded before the call is in the chain, and so may be pruned.
    await this.sequencer.sequence();
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
