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
  type AuditChainRow,
  auditEventOf,
  auditFilter,
  auditPendingRow,
  auditRecordOf,
  isUnfiltered,
  NEW_AUDIT_CHAIN,
  newestFirst,
} from '../shared/audit-rows';
import { SEQUENCE_BATCH, type AuditSequencer, type ChainingPass } from '../shared/audit-sequencer';
import type { PostgresDb, PostgresTx } from './postgres-db';
import { auditChain, auditEvents, auditPending } from './postgres-schema';

/**
 * Records `record` in the caller's transaction, so it commits or rolls back with the change, as
 * an event waiting for its place in the chain (see AuditSequencer). It inserts one row under a
 * key of its own and locks nothing another write needs: writes to different users never wait
 * for each other here, on any instance.
 */
export async function appendAuditEvent(tx: PostgresTx | PostgresDb, record: AuditRecord): Promise<void> {
  await tx.insert(auditPending).values(auditPendingRow(record));
}

/**
 * Locks the chain's one row (made on the first call) until `tx` ends and answers it as it stands
 * then: each pass of the sequencer and each prune take it, so on every instance they take turns
 * and the head and the cut move one at a time. A row lock, not an advisory one: it holds through
 * PgBouncer in transaction mode like any statement, and writes never touch this row. `wait`:
 * wait for the row; otherwise answer nothing at once when another transaction holds it.
 */
async function lockChain(tx: PostgresTx, wait: boolean): Promise<AuditChainRow | undefined> {
  const locked = async () => {
    const query = tx.select().from(auditChain).where(eq(auditChain.id, 1));
    return (await (wait ? query.for('update') : query.for('update', { skipLocked: true })))[0];
  };
  const chain = await locked();
  if (chain) return chain;
  // No row yet, or (without `wait`) a row held by another: a no-op unless it was the first.
  await tx.insert(auditChain).values(NEW_AUDIT_CHAIN).onConflictDoNothing();
  return locked();
}

/** An event's columns that it brings from audit_pending as it was recorded: all but its place and links. */
const { seq: _seq, previousHash: _previousHash, hash: _hash, ...recordedColumns } = getTableColumns(auditEvents);
const RECORDED = sql.join(
  Object.values(recordedColumns).map((column) => sql.identifier(column.name)),
  sql`, `,
);
/** The same columns, as the statement reads them from the rows it deletes. */
const RECORDED_AS_WAITED = sql.join(
  Object.values(recordedColumns).map((column) => sql`waited.${sql.identifier(column.name)}`),
  sql`, `,
);

/**
 * Moves the sealed events out of audit_pending into the chain and sets its head, in one statement
 * (with constant text, so prepared once per connection) rather than a multi-row insert of every
 * event's columns built and sent again at each pass, plus a delete and an update. Each waiting row
 * becomes its event as it was read, with the place and hashes given as one array each. Answers
 * how many it moved.
 */
async function moveIntoChain(tx: PostgresTx, events: readonly AuditEvent[]): Promise<number> {
  const last = events.at(-1)!;
  // One array parameter each (sql.param: Drizzle would spread an array into a list of parameters).
  const column = <T>(of: (event: AuditEvent) => T) => sql.param(events.map(of));
  const ids = column((event) => event.id);
  const [moved] = await tx.execute<{ moved: number }>(sql`
    with waited as (
      delete from ${auditPending} where ${auditPending.id} = any(${ids}::text[]) returning *
    ), links as (
      select * from unnest(
        ${ids}::text[],
        ${column((event) => event.seq)}::bigint[],
        ${column((event) => event.previousHash)}::text[],
        ${column((event) => event.hash)}::text[]
      ) as link(id, seq, previous_hash, hash)
    ), head as (
      update ${auditChain} set head_seq = ${last.seq}::bigint, head_hash = ${last.hash}::text where ${auditChain.id} = 1
    ), chained as (
      insert into ${auditEvents} (seq, previous_hash, hash, ${RECORDED})
      select link.seq, link.previous_hash, link.hash, ${RECORDED_AS_WAITED}
      from waited join links link on link.id = waited.id
      returning 1
    )
    select count(*)::int as moved from chained`);
  return moved?.moved ?? 0;
}

/**
 * Chains the oldest waiting events after the head, in the order they were recorded, in one
 * transaction. The waiting events are read after the chain's row is locked: in READ COMMITTED
 * that read sees whatever the pass before committed, so no event is chained twice.
 */
export function postgresChainingPass(db: PostgresDb): ChainingPass {
  return {
    hasPending: async () => (await db.select({ id: auditPending.id }).from(auditPending).limit(1)).length > 0,
    chain: (wait) =>
      db.transaction(async (tx) => {
        const head = await lockChain(tx, wait);
        if (!head) return 0;
        const waiting = await tx.select().from(auditPending).orderBy(asc(auditPending.ord)).limit(SEQUENCE_BATCH);
        if (waiting.length === 0) return 0;
        const events = sealAuditEvents(waiting.map(auditRecordOf), { seq: Number(head.headSeq), hash: head.headHash });
        // Only passes remove waiting rows, under the chain's lock: every row read is still there.
        if ((await moveIntoChain(tx, events)) !== events.length)
          throw new Error('audit_pending changed under the chain lock');
        return events.length;
      }),
  };
}

/** Runs `write`, and appends `audit` in its transaction when `write` says it changed something. */
export async function writeWithAudit(
  db: PostgresDb,
  audit: AuditRecord | undefined,
  write: (tx: PostgresTx | PostgresDb) => Promise<boolean>,
): Promise<boolean> {
  if (!audit) return write(db);
  return db.transaction(async (tx) => {
    const wrote = await write(tx);
    if (wrote) await appendAuditEvent(tx, audit);
    return wrote;
  });
}

/** A page of the newest matching events. Exported for the query plan tests. */
export function selectAuditPage(db: PostgresDb, filters: AuditFilters, offset: number, limit: number) {
  return db
    .select()
    .from(auditEvents)
    .where(auditFilter(auditEvents, filters))
    .orderBy(...newestFirst(auditEvents))
    .limit(limit)
    .offset(offset);
}

/** The number of matching events, counted in the filter's index range. Exported for the plan tests. */
export function selectAuditTotal(db: PostgresDb, filters: AuditFilters) {
  return db.select({ total: count() }).from(auditEvents).where(auditFilter(auditEvents, filters));
}

/** The newest event older than `before`: pruning removes it and every event before it. Exported for the plan tests. */
export function selectLastBefore(db: PostgresDb, before: Date) {
  return db
    .select({ seq: auditEvents.seq, hash: auditEvents.hash })
    .from(auditEvents)
    .where(lt(auditEvents.time, before))
    .orderBy(...newestFirst(auditEvents))
    .limit(1);
}

export class PostgresAuditTrail implements AuditTrail {
  constructor(
    private readonly db: PostgresDb,
    private readonly sequencer: AuditSequencer,
  ) {}

  async append(record: AuditRecord): Promise<AuditEvent> {
    await appendAuditEvent(this.db, record);
    await this.sequencer.sequence();
    const [row] = await this.db.select().from(auditEvents).where(eq(auditEvents.id, record.id));
    return auditEventOf(row!);
  }

  async list({ page, size, ...filters }: AuditQuery): Promise<AuditPage> {
    // What was recorded before the call is listed.
    await this.sequencer.sequence();
    // One snapshot, so the page and the total describe the same moment.
    return this.db.transaction(
      async (tx) => {
        // Unfiltered, the total is the chain's length: no count over the table.
        const total = isUnfiltered(filters)
          ? chainLength(auditChainState((await tx.select().from(auditChain))[0]))
          : Number((await selectAuditTotal(tx, filters))[0]?.total ?? 0);
        const rows = await selectAuditPage(tx, filters, (page - 1) * size, size);
        return { events: rows.map(auditEventOf), total };
      },
      { isolationLevel: 'repeatable read', accessMode: 'read only' },
    );
  }

  async state(): Promise<AuditChainState> {
    // The chain as it stands once every event recorded before the call has its place.
    await this.sequencer.sequence();
    return auditChainState((await this.db.select().from(auditChain))[0]);
  }

  async chain(afterSeq: number, limit: number): Promise<AuditEvent[]> {
    const rows = await this.db
      .select()
      .from(auditEvents)
      .where(gt(auditEvents.seq, afterSeq))
      .orderBy(asc(auditEvents.seq))
      .limit(limit);
    return rows.map(auditEventOf);
  }

  async prune(before: Date): Promise<number> {
    // Every event recorded before the call is in the chain, and so may be pruned.
    await this.sequencer.sequence();
    // Under the chain's row lock, so prunes and passes on every instance take turns and the cut only moves forward.
    return this.db.transaction(async (tx) => {
      const chain = await lockChain(tx, true);
      const [last] = await selectLastBefore(tx, before);
      if (!chain || !last || last.seq <= chain.cutSeq) return 0;
      const removed = await tx.delete(auditEvents).where(lte(auditEvents.seq, last.seq));
      await tx.update(auditChain).set({ cutSeq: last.seq, cutHash: last.hash }).where(eq(auditChain.id, 1));
      return removed.count;
    });
  }
}
