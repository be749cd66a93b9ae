import { and, desc, eq, gte, isNull, lt, type Column, type SQL } from 'drizzle-orm';
import {
  canonicalChanges,
  EMPTY_CHAIN,
  type AuditAction,
  type AuditActor,
  type AuditChainState,
  type AuditChanges,
  type AuditEvent,
  type AuditFilters,
  type AuditRecord,
} from '@uas/domain';

/** An audit event as both dialects store it: flat columns, `changes` as canonical JSON text. */
export interface AuditEventRow {
  seq: number;
  id: string;
  time: Date;
  actorType: AuditActor['type'];
  actorId: string | null;
  action: AuditAction;
  targetType: string | null;
  targetId: string | null;
  changes: string | null;
  requestId: string | null;
  clientAddress: string | null;
  userAgent: string | null;
  previousHash: string | null;
  hash: string;
}

export function auditEventRow(event: AuditEvent): AuditEventRow {
  return { seq: event.seq, ...auditPendingRow(event), previousHash: event.previousHash, hash: event.hash };
}

export function auditEventOf(row: AuditEventRow): AuditEvent {
  return { ...auditRecordOf(row), seq: Number(row.seq), previousHash: row.previousHash, hash: row.hash };
}

/** A record as it waits for its place in the chain (audit_pending): an event's columns but its links. */
export type AuditPendingRow = Omit<AuditEventRow, 'seq' | 'previousHash' | 'hash'>;

export function auditPendingRow(record: AuditRecord): AuditPendingRow {
  return {
    id: record.id,
    time: record.time,
    actorType: record.actor.type,
    actorId: record.actor.id,
    action: record.action,
    targetType: record.target?.type ?? null,
    targetId: record.target?.id ?? null,
    changes: canonicalChanges(record.changes),
    requestId: record.request.requestId,
    clientAddress: record.request.clientAddress,
    userAgent: record.request.userAgent,
  };
}

export function auditRecordOf(row: AuditPendingRow): AuditRecord {
  return {
    id: row.id,
    time: row.time,
    actor: { type: row.actorType, id: row.actorId },
    action: row.action,
    target: row.targetType === null || row.targetId === null ? null : { type: row.targetType, id: row.targetId },
    changes: row.changes === null ? null : (JSON.parse(row.changes) as AuditChanges),
    request: { requestId: row.requestId, clientAddress: row.clientAddress, userAgent: row.userAgent },
  };
}

export interface AuditChainRow {
  headSeq: number;
  headHash: string | null;
  cutSeq: number;
  cutHash: string | null;
}

/** The chain's row as the domain sees it; no row yet is the empty chain. */
export function auditChainState(row: AuditChainRow | undefined): AuditChainState {
  if (!row) return { head: EMPTY_CHAIN, cut: EMPTY_CHAIN };
  return {
    head: { seq: Number(row.headSeq), hash: row.headHash },
    cut: { seq: Number(row.cutSeq), hash: row.cutHash },
  };
}

/** The chain's row before the first append, which creates it. */
export const NEW_AUDIT_CHAIN = { id: 1, headSeq: 0, headHash: null, cutSeq: 0, cutHash: null };

type AuditColumns = { targetId: Column; actorType: Column; actorId: Column; action: Column; time: Column };

/** The WHERE clause of a listing: each filter an equality or range on an indexed column. */
export function auditFilter(events: AuditColumns, query: AuditFilters): SQL | undefined {
  return and(
    query.targetId === undefined ? undefined : eq(events.targetId, query.targetId),
    query.actorId === undefined
      ? undefined
      : query.actorId === null
        ? and(isNull(events.actorId), eq(events.actorType, 'system'))
        : eq(events.actorId, query.actorId),
    query.action === undefined ? undefined : eq(events.action, query.action),
    query.since === undefined ? undefined : gte(events.time, query.since),
    query.until === undefined ? undefined : lt(events.time, query.until),
  );
}

/**
 * Newest first: every audit index ends in (time, seq), so a filtered page comes off the index in
 * this order (a deep page steps over the entries before it).
 */
export function newestFirst(events: { time: Column; seq: Column }): SQL[] {
  return [desc(events.time), desc(events.seq)];
}

/** Whether a listing filters at all: without a filter its total is the chain's length. */
export function isUnfiltered(query: AuditFilters): boolean {
  return (
    query.targetId === undefined &&
    query.actorId === undefined &&
    query.action === undefined &&
    query.since === undefined &&
    query.until === undefined
  );
}
