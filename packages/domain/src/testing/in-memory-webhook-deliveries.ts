import type { AuditRecord } from '../audit/audit-event.ts';
import {
  deliveryBacklog,
  newDeliveryFields,
  requeuedDeliveryFields,
  settledDeliveryFields,
} from '../webhooks/delivery-states.ts';
import type { WebhookDelivery } from '../webhooks/webhook-delivery.ts';
import { sealedSigningSecrets } from '../webhooks/webhook-secrets.ts';
import {
  type ClaimedWebhookDelivery,
  type DeliveryMapper,
  type DispatchTarget,
  type EndpointShare,
  endpointRoom,
  type NewWebhookDelivery,
  type WebhookAttemptOutcome,
  type WebhookDeliveryPage,
  type WebhookDeliveryRepository,
  type WebhookSettlement,
} from '../webhooks/webhook-delivery.repository.ts';
import type { InMemoryAuditTrail } from './in-memory-audit-trail.ts';
import type { InMemoryWebhookRepository } from './in-memory-webhooks.ts';

type Row = WebhookDelivery;

const newestFirst = (a: Row, b: Row) => b.created.getTime() - a.created.getTime() || (a.id < b.id ? 1 : -1);

/** Deliveries in memory: each method decides and writes without an `await` in between, as a transaction would. */
export class InMemoryWebhookDeliveryRepository implements WebhookDeliveryRepository {
  readonly rows = new Map<string, Row>();

  constructor(
    private readonly webhooks: InMemoryWebhookRepository,
    private readonly audit: InMemoryAuditTrail,
  ) {}

  async dispatchTargets(): Promise<DispatchTarget[]> {
    return [...this.webhooks.rows.values()].filter((hook) => hook.enabled).map(({ id, events }) => ({ id, events }));
  }

  async dispatch(webhookId: string, limit: number, map: DeliveryMapper): Promise<number> {
    const hook = this.webhooks.rows.get(webhookId);
    if (!hook?.enabled) return 0;
    const events = this.audit.events.filter((event) => event.seq > hook.cursor).slice(0, limit);
    if (events.length === 0) return 0;
    const { deliveries, read } = map(hook, events);
    for (const delivery of deliveries) this.insert(delivery, delivery.created, false);
    this.webhooks.rows.set(webhookId, { ...hook, cursor: events[read - 1]!.seq });
    return read;
  }

  async claim(now: Date, leaseUntil: Date, limit: number, share: EndpointShare): Promise<ClaimedWebhookDelivery[]> {
    const taken = new Map<string, number>();
    const due = [...this.rows.values()]
      .filter(
        (row) => row.status === 'pending' && row.nextAttempt <= now && this.webhooks.rows.get(row.webhookId)?.enabled,
      )
      .sort((a, b) => a.nextAttempt.getTime() - b.nextAttempt.getTime())
      .filter((row) => {
        const count = taken.get(row.webhookId) ?? 0;
        taken.set(row.webhookId, count + 1);
        return count < endpointRoom(share, row.webhookId);
      })
      .slice(0, limit);
    return due.map((row) => {
      const claimed = { ...row, attempts: row.attempts + 1, nextAttempt: leaseUntil, leaseUntil, updated: now };
      this.rows.set(row.id, claimed);
      const hook = this.webhooks.rows.get(row.webhookId)!;
      return {
        id: row.id,
        webhookId: row.webhookId,
        url: hook.url,
        eventType: row.eventType,
        payload: row.payload,
        attempt: claimed.attempts,
        secrets: sealedSigningSecrets(hook, now),
        created: row.created,
      };
    });
  }

  async settle(settlements: readonly WebhookSettlement[], failingBefore: Date): Promise<boolean[]> {
    return settlements.map(({ claim, outcome }) => this.settleOne(claim, outcome, failingBefore));
  }

  private settleOne(claim: WebhookSettlement['claim'], outcome: WebhookAttemptOutcome, failingBefore: Date): boolean {
    const row = this.rows.get(claim.id);
    if (row?.status !== 'pending' || row.attempts !== claim.attempt) return false;
    this.rows.set(claim.id, { ...row, ...settledDeliveryFields(outcome) });
    const hook = this.webhooks.rows.get(claim.webhookId);
    if (!hook) return true;
    if (outcome.status === 'succeeded') this.webhooks.rows.set(hook.id, { ...hook, failingSince: null });
    else if (outcome.gone) this.webhooks.rows.set(hook.id, { ...hook, enabled: false, disabledReason: 'gone' });
    else {
      const failingSince = hook.failingSince ?? outcome.at;
      const failing = hook.enabled && failingSince <= failingBefore;
      this.webhooks.rows.set(hook.id, {
        ...hook,
        failingSince,
        ...(failing ? { enabled: false, disabledReason: 'failing' as const } : {}),
      });
    }
    return true;
  }

  async enqueue(delivery: NewWebhookDelivery): Promise<void> {
    this.insert(delivery, delivery.created, false);
  }

  async list(webhookId: string, { page, size }: { page: number; size: number }): Promise<WebhookDeliveryPage> {
    const all = [...this.rows.values()].filter((row) => row.webhookId === webhookId).sort(newestFirst);
    return {
      deliveries: all.slice((page - 1) * size, page * size).map((row) => structuredClone(row)),
      total: all.length,
    };
  }

  async replay(webhookId: string, id: string, now: Date, audit: AuditRecord): Promise<boolean> {
    const row = this.rows.get(id);
    if (!row || row.webhookId !== webhookId) return false;
    this.requeue(row, now);
    this.audit.appendNow(audit);
    return true;
  }

  async replaySince(
    webhookId: string,
    since: number,
    now: Date,
    map: DeliveryMapper,
    audit: AuditRecord,
  ): Promise<number> {
    const hook = this.webhooks.rows.get(webhookId);
    if (!hook) return 0;
    this.audit.appendNow(audit);
    let events = this.audit.events.filter((event) => event.seq >= since && event.seq <= hook.cursor);
    let queued = 0;
    while (events.length > 0) {
      const { deliveries, read } = map(hook, events);
      for (const delivery of deliveries) this.insert(delivery, now, true);
      queued += deliveries.length;
      events = events.slice(read);
    }
    return queued;
  }

  async backlog(now: Date): Promise<{ pending: number; oldestDueSeconds: number }> {
    const pending = [...this.rows.values()].filter((row) => row.status === 'pending');
    const oldest = pending.length ? new Date(Math.min(...pending.map((row) => row.nextAttempt.getTime()))) : null;
    return deliveryBacklog(pending.length, oldest, now);
  }

  private insert(delivery: NewWebhookDelivery, now: Date, replay: boolean): void {
    const existing = [...this.rows.values()].find((row) => row.id === delivery.id);
    if (existing) {
      if (replay) this.requeue(existing, now);
      return;
    }
    this.rows.set(delivery.id, newDeliveryFields(delivery, now));
  }

  /** Due again at `now`, unless an attempt holds it. */
  private requeue(row: Row, now: Date): void {
    if (row.leaseUntil && row.leaseUntil > now) return;
    this.rows.set(row.id, { ...row, ...requeuedDeliveryFields(now) });
  }
}
