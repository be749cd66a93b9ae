import type { JsonValue } from '../shared/json.ts';
import { sha256Hex } from '../shared/sha256.ts';
import type { AuditChanges, AuditEvent, AuditRecord } from './audit-event.ts';

/** A link of the chain: an event's place and hash (or where a pruned stretch ended). */
export interface ChainLink {
  readonly seq: number;
  readonly hash: string | null;
}

/**
 * What the store keeps beside the events: the head (the last event appended), and the cut (the
 * last event pruned), so that the chain that remains still verifies from its first event on.
 */
export interface AuditChainState {
  readonly head: ChainLink;
  readonly cut: ChainLink;
}

/** How many events the chain holds: those after the cut, up to the head. */
export function chainLength({ head, cut }: AuditChainState): number {
  return head.seq - cut.seq;
}

/** The chain before its first event: nothing appended, nothing pruned. */
export const EMPTY_CHAIN: ChainLink = { seq: 0, hash: null };

/** A JSON value with every object's keys in code-point order, so equal values serialise alike. */
function sortedKeys(value: JsonValue): JsonValue {
  if (Array.isArray(value)) return value.map(sortedKeys);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.keys(value)
      .sort()
      .map((key) => [key, sortedKeys(value[key]!)]),
  );
}

/** `changes` as the stores keep them: canonical JSON text, hashed exactly as stored. */
export function canonicalChanges(changes: AuditChanges | null): string | null {
  return changes === null ? null : JSON.stringify(sortedKeys(changes as JsonValue));
}

/** Everything an event's hash covers, in a fixed order: its content, its place, its predecessor. */
function canonicalContent(event: Omit<AuditEvent, 'hash'>): string {
  return JSON.stringify([
    'uas-audit-1',
    event.seq,
    event.id,
    event.time.toISOString(),
    event.actor.type,
    event.actor.id,
    event.action,
    event.target?.type ?? null,
    event.target?.id ?? null,
    canonicalChanges(event.changes),
    event.request.requestId,
    event.request.clientAddress,
    event.request.userAgent,
    event.previousHash,
  ]);
}

export function auditEventHash(event: Omit<AuditEvent, 'hash'>): string {
  return sha256Hex(canonicalContent(event));
}

/** The record as the next event after `previous`: the one way every store links an event in. */
export function sealAuditEvent(record: AuditRecord, previous: ChainLink): AuditEvent {
  const unsealed = { ...record, seq: previous.seq + 1, previousHash: previous.hash };
  return { ...unsealed, hash: auditEventHash(unsealed) };
}

/** The records as the next events after `previous`, in order, each linked to the one before. */
export function sealAuditEvents(records: readonly AuditRecord[], previous: ChainLink): AuditEvent[] {
  let last = previous;
  return records.map((record) => (last = sealAuditEvent(record, last)));
}

/** Where verification found the chain broken: the first event that does not hold, and why. */
export interface ChainBreak {
  /** The event, or null when what is missing is the chain's end (the head names an event that is gone). */
  readonly event: { readonly id: string; readonly seq: number } | null;
  readonly reason: string;
}

export interface ChainReport {
  /** Events checked (those after the cut). */
  readonly checked: number;
  readonly state: AuditChainState;
  readonly broken: ChainBreak | null;
}

/**
 * Walks the events after the cut in chain order and checks each: that it comes next (no event
 * missing before it), that it names the hash of the event before it, and that its content still
 * gives its hash; then that the chain ends at the head. Editing, deleting or reordering an event
 * breaks one of these at that event or the one after it.
 */
export async function verifyAuditChain(
  state: AuditChainState,
  events: AsyncIterable<AuditEvent> | Iterable<AuditEvent>,
): Promise<ChainReport> {
  let previous: ChainLink = state.cut;
  let checked = 0;
  const report = (broken: ChainBreak | null): ChainReport => ({ checked, state, broken });
  for await (const event of events) {
    const at = { id: event.id, seq: event.seq };
    if (event.seq !== previous.seq + 1) {
      return report({
        event: at,
        reason: `it is event ${event.seq} but follows event ${previous.seq}: what lay between is missing or moved`,
      });
    }
    if (event.previousHash !== previous.hash) {
      return report({ event: at, reason: 'it does not name the hash of the event before it' });
    }
    if (auditEventHash(event) !== event.hash) {
      return report({ event: at, reason: 'its content does not match its hash: it was changed' });
    }
    previous = event;
    checked += 1;
  }
  if (previous.seq !== state.head.seq || previous.hash !== state.head.hash) {
    return report({
      event: null,
      reason: `the chain ends at event ${previous.seq}, but its head is event ${state.head.seq}: the last events are missing or changed`,
    });
  }
  return report(null);
}
