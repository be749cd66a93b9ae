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
import type { PostgresDb, PostgresTx } from './postgres-db';
import { auditChain, auditEvents } from './postgres-schema';

/**
 * Appends `record` as the next event of the chain, inside the caller's transaction. The upsert
 * locks the chain's row (creating it on the first append) until that transaction ends, so every
 * other append, from any instance, waits and then reads the head this one wrote: one chain,
 * never a fork. Call it last in a transaction, so the row is held only for the commit.
 */
export async function appendAuditEvent(tx: PostgresTx | PostgresDb, record: AuditRecord): Promise<AuditEvent> {
  const [head] = await tx
    .insert(auditChain)
    .values(NEW_AUDIT_CHAIN)
    .onConflictDoUpdate({ target: auditChain.id, set: { id: 1 } })
    .returning({ seq: auditChain.headSeq, hash: auditChain.headHash });
  const event = sealAuditEvent(record, { seq: Number(head!.seq), hash: head!.hash });
  await tx.insert(auditEvents).values(auditEventRow(event));
  await tx.update(auditChain).set({ headSeq: event.seq, headHash: event.hash }).where(eq(auditChain.id, 1));
  return event;
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
  constructor(private readonly db: PostgresDb) {}

  async append(record: AuditRecord): Promise<AuditEvent> {
    return this.db.transaction((tx) => appendAuditEvent(tx, record));
  }

  async list({ page, size, ...filters }: AuditQuery): Promise<AuditPage> {
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
    // The chain's row is locked first, so prunes on several instances take turns and the cut only moves forward.
    return this.db.transaction(async (tx) => {
      const [chain] = await tx.select().from(auditChain).where(eq(auditChain.id, 1)).for('update');
      const [last] = await selectLastBefore(tx, before);
      if (!chain || !last || last.seq <= chain.cutSeq) return 0;
      const removed = await tx.delete(auditEvents).where(lte(auditEvents.seq, last.seq));
      await tx.update(auditChain).set({ cutSeq: last.seq, cutHash: last.hash }).where(eq(auditChain.id, 1));
      return removed.count;
    });
  }
}
