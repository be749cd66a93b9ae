import { EMPTY_CHAIN, sealAuditEvent, type AuditChainState, type ChainLink } from '../audit/audit-chain.ts';
import type { AuditEvent, AuditRecord } from '../audit/audit-event.ts';
import type { AuditFilters, AuditPage, AuditQuery, AuditTrail } from '../audit/audit-trail.ts';
import type { AuditTampering } from './contract-harness.ts';

/** Newest first: by time, then by place in the chain. */
const newestFirst = (a: AuditEvent, b: AuditEvent) => b.time.getTime() - a.time.getTime() || b.seq - a.seq;

export function matchesAuditQuery(event: AuditEvent, query: AuditFilters): boolean {
  return (
    (query.targetId === undefined || event.target?.id === query.targetId) &&
    (query.actorId === undefined ||
      (query.actorId === null ? event.actor.type === 'system' : event.actor.id === query.actorId)) &&
    (query.action === undefined || event.action === query.action) &&
    (query.since === undefined || event.time.getTime() >= query.since.getTime()) &&
    (query.until === undefined || event.time.getTime() < query.until.getTime())
  );
}

/**
 * The chain in memory. `appendNow` runs without an `await`, so the other fakes call it in the
 * same synchronous stretch as their write: what a transaction gives the real stores.
 */
export class InMemoryAuditTrail implements AuditTrail {
  /** Edits behind the trail's back, as the contract suite's tampering tests make them. */
  readonly tamper: AuditTampering = {
    setClientAddress: async (seq, address) => {
      const index = this.indexOf(seq);
      const event = this.events[index]!;
      this.events[index] = { ...event, request: { ...event.request, clientAddress: address } };
    },
    remove: async (seq) => {
      this.events.splice(this.indexOf(seq), 1);
    },
    swap: async (a, b) => {
      const [first, second] = [this.indexOf(a), this.indexOf(b)];
      this.events[first] = { ...this.events[first]!, seq: b };
      this.events[second] = { ...this.events[second]!, seq: a };
    },
    insert: async (event) => {
      const place = this.indexOf(event.seq);
      for (let index = place; index < this.events.length; index += 1) {
        this.events[index] = { ...this.events[index]!, seq: this.events[index]!.seq + 1 };
      }
      this.events.splice(place, 0, structuredClone(event));
    },
  };

  private indexOf(seq: number): number {
    return this.events.findIndex((event) => event.seq === seq);
  }

  /** In chain order. Tests may tamper with it, as someone with access to the database could. */
  readonly events: AuditEvent[] = [];
  head: ChainLink = EMPTY_CHAIN;
  cut: ChainLink = EMPTY_CHAIN;

  appendNow(record: AuditRecord): AuditEvent {
    const event = sealAuditEvent(structuredClone(record), this.head);
    this.events.push(event);
    this.head = { seq: event.seq, hash: event.hash };
    return structuredClone(event);
  }

  async append(record: AuditRecord): Promise<AuditEvent> {
    return this.appendNow(record);
  }

  async list({ page, size, ...filters }: AuditQuery): Promise<AuditPage> {
    const matching = this.events.filter((event) => matchesAuditQuery(event, filters)).sort(newestFirst);
    return { events: structuredClone(matching.slice((page - 1) * size, page * size)), total: matching.length };
  }

  async state(): Promise<AuditChainState> {
    return { head: { ...this.head }, cut: { ...this.cut } };
  }

  async chain(afterSeq: number, limit: number): Promise<AuditEvent[]> {
    return structuredClone(
      this.events
        .filter((event) => event.seq > afterSeq)
        .sort((a, b) => a.seq - b.seq)
        .slice(0, limit),
    );
  }

  async prune(before: Date): Promise<number> {
    const last = this.events.filter((event) => event.time.getTime() < before.getTime()).sort(newestFirst)[0];
    if (!last) return 0;
    const kept = this.events.filter((event) => event.seq > last.seq);
    const removed = this.events.length - kept.length;
    this.events.splice(0, this.events.length, ...kept);
    this.cut = { seq: last.seq, hash: last.hash };
    return removed;
  }
}
