import { and, asc, count, eq, gt, inArray, lte, min, sql } from 'drizzle-orm';
import {
  type AuditRecord,
  type ClaimedWebhookDelivery,
  type DeliveryMapper,
  type DispatchTarget,
  type EndpointShare,
  endpointRooms,
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
import { appendAuditEvent } from './postgres-audit-trail';
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
import type { PostgresDb, PostgresTx } from './postgres-db';
import { auditEvents, webhookDeliveries, webhooks } from './postgres-schema';

/** Events a replay reads per statement. */
const REPLAY_BATCH = 500;

/**
 * The deliveries on PostgreSQL, shared by the workers of every instance: a dispatch holds its
 * endpoint's row (another instance skips it meanwhile), a claim takes the due rows no other claim
 * holds (FOR UPDATE SKIP LOCKED), so no two take the same delivery or the same batch of events.
 */
export class PostgresWebhookDeliveryRepository implements WebhookDeliveryRepository {
  constructor(private readonly db: PostgresDb) {}

  async dispatchTargets(): Promise<DispatchTarget[]> {
    return this.db
      .select({ id: webhooks.id, events: webhooks.events })
      .from(webhooks)
      .where(eq(webhooks.enabled, true));
  }

  async dispatch(webhookId: string, limit: number, map: DeliveryMapper): Promise<number> {
    return this.db.transaction(async (tx) => {
      // Held until the commit; another instance's dispatcher skips the endpoint meanwhile.
      const [target] = await tx
        .select({ id: webhooks.id, events: webhooks.events, cursor: webhooks.cursor })
        .from(webhooks)
        .where(and(eq(webhooks.id, webhookId), eq(webhooks.enabled, true)))
        .for('update', { skipLocked: true });
      if (!target) return 0;
      const events = (
        await tx
          .select()
          .from(auditEvents)
          .where(gt(auditEvents.seq, target.cursor))
          .orderBy(asc(auditEvents.seq))
          .limit(limit)
      ).map(auditEventOf);
      if (events.length === 0) return 0;
      const { deliveries, read } = map(target, events);
      await insertDeliveries(tx, deliveries);
      await tx
        .update(webhooks)
        .set({ cursor: events[read - 1]!.seq })
        .where(eq(webhooks.id, webhookId));
      return read;
    });
  }

  async claim(now: Date, leaseUntil: Date, limit: number, share: EndpointShare): Promise<ClaimedWebhookDelivery[]> {
    // The oldest due of each enabled endpoint, up to its room (through the per-endpoint due index,
    // skipping rows another claim holds), then the oldest of those.
    const rooms = JSON.stringify(endpointRooms(share));
    const due = sql`(select due.id from ${webhooks} endpoint cross join lateral (
        select ${webhookDeliveries.id} as id, ${webhookDeliveries.nextAttempt} as next_attempt
        from ${webhookDeliveries}
        where ${webhookDeliveries.webhookId} = endpoint.id and ${deliveryDueAt(webhookDeliveries, now)}
        order by ${webhookDeliveries.nextAttempt}
        limit least(${limit}::int, coalesce((${rooms}::jsonb ->> endpoint.id)::int, ${share.max}::int))
        for update skip locked
      ) due
      where endpoint.enabled
      order by due.next_attempt
      limit ${limit}::int)`;
    const rows = await this.db
      .update(webhookDeliveries)
      .set(claimedDeliveryColumns(webhookDeliveries, leaseUntil, now))
      .where(inArray(webhookDeliveries.id, due))
      .returning();
    if (rows.length === 0) return [];
    const endpoints = await this.db
      .select()
      .from(webhooks)
      .where(inArray(webhooks.id, [...new Set(rows.map((row) => row.webhookId))]));
    return claimedDeliveries(rows, endpoints, now);
  }

  async settle(settlements: readonly WebhookSettlement[], failingBefore: Date): Promise<boolean[]> {
    // All at once: the driver pipelines the transaction's statements on its connection, so a
    // round costs about as many round trips as its longest settlement, not the sum of them.
    return this.db.transaction((tx) =>
      Promise.all(settlements.map(({ claim, outcome }) => settleOne(tx, claim, outcome, failingBefore))),
    );
  }

  async enqueue(delivery: NewWebhookDelivery): Promise<void> {
    await insertDeliveries(this.db, [delivery]);
  }

  async list(webhookId: string, { page, size }: { page: number; size: number }): Promise<WebhookDeliveryPage> {
    const where = eq(webhookDeliveries.webhookId, webhookId);
    const [deliveries, [counted]] = await Promise.all([
      this.db
        .select()
        .from(webhookDeliveries)
        .where(where)
        .orderBy(...newestDeliveriesFirst(webhookDeliveries))
        .limit(size)
        .offset((page - 1) * size),
      this.db.select({ total: count() }).from(webhookDeliveries).where(where),
    ]);
    return { deliveries, total: counted?.total ?? 0 };
  }

  async replay(webhookId: string, id: string, now: Date, audit: AuditRecord): Promise<boolean> {
    const where = and(eq(webhookDeliveries.id, id), eq(webhookDeliveries.webhookId, webhookId));
    return this.db.transaction(async (tx) => {
      const [found] = await tx.select({ id: webhookDeliveries.id }).from(webhookDeliveries).where(where).for('update');
      // One in flight is being delivered already: left to its attempt.
      if (!found) return false;
      await tx
        .update(webhookDeliveries)
        .set(requeuedDeliveryFields(now))
        .where(and(where, notHeld(webhookDeliveries, now)));
      await appendAuditEvent(tx, audit);
      return true;
    });
  }

  async replaySince(
    webhookId: string,
    since: number,
    now: Date,
    map: DeliveryMapper,
    audit: AuditRecord,
  ): Promise<number> {
    return this.db.transaction(async (tx) => {
      const [target] = await tx
        .select({ id: webhooks.id, events: webhooks.events, cursor: webhooks.cursor })
        .from(webhooks)
        .where(eq(webhooks.id, webhookId))
        .for('update');
      if (!target) return 0;
      await appendAuditEvent(tx, audit);
      let queued = 0;
      for (let after = since - 1; ; ) {
        const events = (
          await tx
            .select()
            .from(auditEvents)
            .where(and(gt(auditEvents.seq, after), lte(auditEvents.seq, target.cursor)))
            .orderBy(asc(auditEvents.seq))
            .limit(REPLAY_BATCH)
        ).map(auditEventOf);
        if (events.length === 0) return queued;
        const { deliveries: made, read } = map(target, events);
        if (made.length > 0) {
          await tx
            .insert(webhookDeliveries)
            .values(made.map((delivery) => newDeliveryFields(delivery, now)))
            .onConflictDoUpdate({
              target: webhookDeliveries.id,
              set: requeuedDeliveryFields(now),
              setWhere: notHeld(webhookDeliveries, now),
            });
        }
        queued += made.length;
        after = events[read - 1]!.seq;
      }
    });
  }

  async backlog(now: Date): Promise<{ pending: number; oldestDueSeconds: number }> {
    const [row] = await this.db
      .select({ pending: count(), oldest: min(webhookDeliveries.nextAttempt) })
      .from(webhookDeliveries)
      .where(eq(webhookDeliveries.status, 'pending'));
    return backlogOf(row, now);
  }
}

/** Records one outcome, and its endpoint's, in the caller's transaction; false when a later claim took it over. */
async function settleOne(
  tx: PostgresTx,
  claim: WebhookSettlement['claim'],
  outcome: WebhookAttemptOutcome,
  failingBefore: Date,
): Promise<boolean> {
  const held = await tx
    .update(webhookDeliveries)
    .set(settledDeliveryFields(outcome))
    .where(deliveryHeldBy(webhookDeliveries, claim))
    .returning({ id: webhookDeliveries.id });
  if (held.length !== 1) return false;
  // In order: a failure's disabling reads the `failing_since` the update before it set.
  for (const { set, where } of settledEndpointUpdates(webhooks, claim.webhookId, outcome, failingBefore)) {
    await tx.update(webhooks).set(set).where(where);
  }
  return true;
}

async function insertDeliveries(tx: PostgresTx | PostgresDb, deliveries: readonly NewWebhookDelivery[]): Promise<void> {
  if (deliveries.length === 0) return;
  await tx
    .insert(webhookDeliveries)
    .values(deliveries.map((delivery) => newDeliveryFields(delivery)))
    .onConflictDoNothing();
}
