import { token } from '../shared/token.ts';
import type { AuditChainState } from './audit-chain.ts';
import type { AuditAction, AuditEvent, AuditRecord } from './audit-event.ts';

/** Which events a listing shows; each filter given narrows it. */
export interface AuditFilters {
  /** Events whose target has this id. */
  targetId?: string;
  /** Events by the account with this id; null: events by the system. */
  actorId?: string | null;
  action?: AuditAction;
  /** Events at or after this time. */
  since?: Date;
  /** Events before this time. */
  until?: Date;
}

export interface AuditQuery extends AuditFilters {
  /** 1-based page number. */
  page: number;
  size: number;
}

export interface AuditPage {
  /** Newest first: by time, then by place in the chain. */
  events: AuditEvent[];
  /** Events matching the query across all pages. */
  total: number;
}

/**
 * The audit trail: one hash chain of events. The write ports take an `AuditRecord` beside a
 * change and record it in the change's transaction, so the event commits with its change or not
 * at all; each committed event then takes the next place in the chain (the stores chain them in
 * batches, without making writes wait for each other). Reading the trail (`list`, `state`) and
 * `append` first give every event committed before the call its place.
 */
export interface AuditTrail {
  /** Appends an event that goes with no other write (a failed login, an export); answers it with its place. */
  append(record: AuditRecord): Promise<AuditEvent>;
  list(query: AuditQuery): Promise<AuditPage>;
  state(): Promise<AuditChainState>;
  /** Up to `limit` events after place `afterSeq`, in chain order: what verification walks. */
  chain(afterSeq: number, limit: number): Promise<AuditEvent[]>;
  /**
   * Removes the events older than `before` from the start of the chain, recording the last one
   * removed as the cut, in one transaction. Answers how many were removed.
   */
  prune(before: Date): Promise<number>;
}
export const AuditTrail = token<AuditTrail>('AuditTrail');
