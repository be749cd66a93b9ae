import { and, asc, count, eq, gt, inArray, lte, min } from 'drizzle-orm';
import {
  type AuditRecord,
  type ClaimedWebhookDelivery,
  type DeliveryMapper,
  type DispatchTarget,
  type EndpointShare,
  endpointRoom,
  newDeliveryFields,
  type NewWebhookDelivery,
  requeuedDeliveryFields,
  settledDeliveryFields,
  type WebhookAttemptOutcome,
  type WebhookDeliveryPage,
  type WebhookDeliveryRepository,
  type WebhookSettlement,
} from '@uas/domain';
import { auditEventOf } from '../shared/audit-rows';
import { appendAuditEvent } from './sqlite-audit-trail';
import {
  backlogOf,
  claimedDeliveries,
  claimedDeliveryColumns,
  deliveryDueAt,
  deliveryHeldBy,
  newestDeliveriesFirst,
  notHeld,
  settledEndpointUpdates,
} from '../shared/webhook-delivery-rows';
import type { SqliteDb } from './sqlite-db';
import { auditEvents, webhookDeliveries, webhooks } from './sqlite-schema';

/** Events a replay reads per statement. */
const REPLAY_BATCH = 500;

/**
 * The deliveries on SQLite: every write is one IMMEDIATE transaction, and the database has one
 * writer, so a dispatch, a claim or a settle never overlaps another on any connection.
 */
export class SqliteWebhookDeliveryRepository implements WebhookDeliveryRepository {
  constructor(private readonly db: SqliteDb) {}

  async dispatchTargets(): Promise<DispatchTarget[]> {
    return this.db
      .select({ id: webhooks.id, events: webhooks.events })
      .from(webhooks)
      .where(eq(webhooks.enabled, true))
      .all();
  }

  async dispatch(webhookId: string, limit: number, map: DeliveryMapper): Promise<number> {
    // A read first: an endpoint that has caught up costs no write lock, which every write waits for.
    if (!this.hasEventsAfterCursor(webhookId)) return 0;
    return this.db.transaction(
      (tx) => {
        const target = tx
          .select({ id: webhooks.id, events: webhooks.events, cursor: webhooks.cursor })
          .from(webhooks)
          .where(and(eq(webhooks.id, webhookId), eq(webhooks.enabled, true)))
          .get();
        if (!target) return 0;
        const events = tx
          .select()
          .from(auditEvents)
          .where(gt(auditEvents.seq, target.cursor))
          .orderBy(asc(auditEvents.seq))
          .limit(limit)
          .all()
          .map(auditEventOf);
        if (events.length === 0) return 0;
        const { deliveries, read } = map(target, events);
        insertDeliveries(tx, deliveries);
        tx.update(webhooks)
          .set({ cursor: events[read - 1]!.seq })
          .where(eq(webhooks.id, webhookId))
          .run();
        return read;
      },
      { behavior: 'immediate' },
    );
  }

  async claim(now: Date, leaseUntil: Date, limit: number, share: EndpointShare): Promise<ClaimedWebhookDelivery[]> {
    // As in dispatch: nothing due costs no write lock.
    if (
      !this.db
        .select({ id: webhookDeliveries.id })
        .from(webhookDeliveries)
        .where(deliveryDueAt(webhookDeliveries, now))
        .limit(1)
        .get()
    ) {
      return [];
    }
    return this.db.transaction(
      (tx) => {
        // The oldest due of each enabled endpoint, up to its room (through the per-endpoint due
        // index), then the oldest of those: the endpoints are few, the statements synchronous.
        const due = tx
          .select({ id: webhooks.id })
          .from(webhooks)
          .where(eq(webhooks.enabled, true))
          .all()
          .flatMap(({ id }) => {
            const room = Math.min(limit, endpointRoom(share, id));
            if (room === 0) return [];
            return tx
              .select({ id: webhookDeliveries.id, nextAttempt: webhookDeliveries.nextAttempt })
              .from(webhookDeliveries)
              .where(and(eq(webhookDeliveries.webhookId, id), deliveryDueAt(webhookDeliveries, now)))
              .orderBy(asc(webhookDeliveries.nextAttempt))
              .limit(room)
              .all();
          })
          .sort((a, b) => a.nextAttempt.getTime() - b.nextAttempt.getTime())
          .slice(0, limit)
          .map((row) => row.id);
        if (due.length === 0) return [];
        const rows = tx
          .update(webhookDeliveries)
          .set(claimedDeliveryColumns(webhookDeliveries, leaseUntil, now))
          .where(inArray(webhookDeliveries.id, due))
          .returning()
          .all();
        if (rows.length === 0) return [];
        const endpoints = tx
          .select()
          .from(webhooks)
          .where(inArray(webhooks.id, [...new Set(rows.map((row) => row.webhookId))]))
          .all();
        return claimedDeliveries(rows, endpoints, now);
      },
      { behavior: 'immediate' },
    );
  }

  async settle(settlements: readonly WebhookSettlement[], failingBefore: Date): Promise<boolean[]> {
    return this.db.transaction(
      (tx) => settlements.map(({ claim, outcome }) => settleOne(tx, claim, outcome, failingBefore)),
      { behavior: 'immediate' },
    );
  }

  async enqueue(delivery: NewWebhookDelivery): Promise<void> {
    insertDeliveries(this.db, [delivery]);
  }

  async list(webhookId: string, { page, size }: { page: number; size: number }): Promise<WebhookDeliveryPage> {
    const where = eq(webhookDeliveries.webhookId, webhookId);
    const deliveries = this.db
      .select()
      .from(webhookDeliveries)
      .where(where)
      .orderBy(...newestDeliveriesFirst(webhookDeliveries))
      .limit(size)
      .offset((page - 1) * size)
      .all();
    const [counted] = this.db.select({ total: count() }).from(webhookDeliveries).where(where).all();
    return { deliveries, total: counted?.total ?? 0 };
  }

  async replay(webhookId: string, id: string, now: Date, audit: AuditRecord): Promise<boolean> {
    const where = and(eq(webhookDeliveries.id, id), eq(webhookDeliveries.webhookId, webhookId));
    return this.db.transaction(
      (tx) => {
        const found = tx.select({ id: webhookDeliveries.id }).from(webhookDeliveries).where(where).get();
        // One in flight is being delivered already: left to its attempt.
        if (!found) return false;
        tx.update(webhookDeliveries)
          .set(requeuedDeliveryFields(now))
          .where(and(where, notHeld(webhookDeliveries, now)))
          .run();
        appendAuditEvent(tx, audit);
        return true;
      },
      { behavior: 'immediate' },
    );
  }

  async replaySince(
    webhookId: string,
    since: number,
    now: Date,
    map: DeliveryMapper,
    audit: AuditRecord,
  ): Promise<number> {
    return this.db.transaction(
      (tx) => {
        const target = tx
          .select({ id: webhooks.id, events: webhooks.events, cursor: webhooks.cursor })
          .from(webhooks)
          .where(eq(webhooks.id, webhookId))
          .get();
        if (!target) return 0;
        appendAuditEvent(tx, audit);
        let queued = 0;
        for (let after = since - 1; ; ) {
          const events = tx
            .select()
            .from(auditEvents)
            .where(and(gt(auditEvents.seq, after), lte(auditEvents.seq, target.cursor)))
            .orderBy(asc(auditEvents.seq))
            .limit(REPLAY_BATCH)
            .all()
            .map(auditEventOf);
          if (events.length === 0) return queued;
          const { deliveries: made, read } = map(target, events);
          if (made.length > 0) {
            tx.insert(webhookDeliveries)
              .values(made.map((delivery) => newDeliveryFields(delivery, now)))
              .onConflictDoUpdate({
                target: webhookDeliveries.id,
                set: requeuedDeliveryFields(now),
                setWhere: notHeld(webhookDeliveries, now),
              })
              .run();
          }
          queued += made.length;
          after = events[read - 1]!.seq;
        }
      },
      { behavior: 'immediate' },
    );
  }

  private hasEventsAfterCursor(webhookId: string): boolean {
    const target = this.db.select({ cursor: webhooks.cursor }).from(webhooks).where(eq(webhooks.id, webhookId)).get();
    if (!target) return false;
    return (
      this.db
        .select({ seq: auditEvents.seq })
        .from(auditEvents)
        .where(gt(auditEvents.seq, target.cursor))
        .limit(1)
        .get() !== undefined
    );
  }

  async backlog(now: Date): Promise<{ pending: number; oldestDueSeconds: number }> {
    const row = this.db
      .select({ pending: count(), oldest: min(webhookDeliveries.nextAttempt) })
      .from(webhookDeliveries)
      .where(eq(webhookDeliveries.status, 'pending'))
      .get();
    return backlogOf(row, now);
  }
}

/** Records one outcome, and its endpoint's, in the caller's transaction; false when a later claim took it over. */
function settleOne(
  tx: SqliteDb,
  claim: WebhookSettlement['claim'],
  outcome: WebhookAttemptOutcome,
  failingBefore: Date,
) {
  const held =
    tx
      .update(webhookDeliveries)
      .set(settledDeliveryFields(outcome))
      .where(deliveryHeldBy(webhookDeliveries, claim))
      .run().changes === 1;
  if (!held) return false;
  for (const { set, where } of settledEndpointUpdates(webhooks, claim.webhookId, outcome, failingBefore)) {
    tx.update(webhooks).set(set).where(where).run();
  }
  return true;
}

function insertDeliveries(tx: SqliteDb, deliveries: readonly NewWebhookDelivery[]): void {
  if (deliveries.length === 0) return;
  tx.insert(webhookDeliveries)
    .values(deliveries.map((delivery) => newDeliveryFields(delivery)))
    .onConflictDoNothing()
    .run();
}
