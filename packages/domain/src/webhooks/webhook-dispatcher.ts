import type { AuditEvent } from '../audit/audit-event.ts';
import { importedUsersOf } from '../transfer/imported-users.ts';
import { deliveryId, type PayloadUser, webhookPayload } from './delivery-payload.ts';
import type { DeliveryMapper, NewWebhookDelivery, WebhookDeliveryRepository } from './webhook-delivery.repository.ts';
import {
  webhookEventTypeOf,
  webhookReceives,
  type WebhookEventSelector,
  type WebhookEventType,
} from './webhook-events.ts';

/** Audit events one dispatch transaction reads at most for one endpoint. */
export const DISPATCH_BATCH = 500;

/**
 * Deliveries one dispatch transaction makes at most for one endpoint: an import's event makes one
 * per user, and MAX_IMPORT_BATCH_SIZE of them fit alone, so a batch of imports is taken a few at a time.
 */
export const DISPATCH_DELIVERIES_MAX = 1000;

/** One event as an endpoint receives it: its type, and the user of an event that stands for many. */
interface EventPart {
  readonly type: WebhookEventType;
  readonly user?: PayloadUser;
}

/** What one audit event is sent as: one event, none, or one per user an import wrote. */
function partsOf(event: AuditEvent): EventPart[] {
  if (event.action === 'users.imported') {
    const { created, updated } = importedUsersOf(event);
    return [
      ...created.map((user): EventPart => ({ type: 'user.created', user })),
      ...updated.map((user): EventPart => ({ type: 'user.updated', user })),
    ];
  }
  const type = webhookEventTypeOf(event);
  return type === null ? [] : [{ type }];
}

/**
 * The deliveries to `target` of the events it subscribed to among `events`, from the first, until
 * the next would take them past DISPATCH_DELIVERIES_MAX (the first is always taken): one per
 * event (per user of an import's), with the id derived from the endpoint, the event's place and
 * that user, so a redo makes the same ones.
 */
export const deliveriesOf: DeliveryMapper = (target, events) => {
  const deliveries: NewWebhookDelivery[] = [];
  let read = 0;
  for (const event of events) {
    const parts = partsOf(event).filter(({ type }) =>
      webhookReceives(target.events as readonly WebhookEventSelector[], type),
    );
    if (read > 0 && deliveries.length + parts.length > DISPATCH_DELIVERIES_MAX) break;
    for (const { type, user } of parts) {
      deliveries.push({
        id: deliveryId(target.id, event.seq, user?.id),
        webhookId: target.id,
        seq: event.seq,
        eventType: type,
        payload: webhookPayload(type, event, user),
        created: event.time,
      });
    }
    read += 1;
  }
  return { deliveries, read };
};

/**
 * Turns the audit trail into deliveries: for each enabled endpoint, the events after its cursor.
 * Reading the trail (rather than hooking each write) is what makes an event exist if and only if
 * its change committed; the cursor moves in the transaction that inserts the deliveries.
 */
export class WebhookDispatcher {
  constructor(private readonly deps: { deliveries: WebhookDeliveryRepository }) {}

  /** One pass over every enabled endpoint, until each has caught up. Answers the events read. */
  async dispatchAll(): Promise<number> {
    const { deliveries } = this.deps;
    let read = 0;
    // Whether the last batch stopped short of the events it read (at DISPATCH_DELIVERIES_MAX).
    let stoppedShort = false;
    const map: DeliveryMapper = (target, events) => {
      const mapped = deliveriesOf(target, events);
      stoppedShort = mapped.read < events.length;
      return mapped;
    };
    for (const target of await deliveries.dispatchTargets()) {
      for (;;) {
        stoppedShort = false;
        const batch = await deliveries.dispatch(target.id, DISPATCH_BATCH, map);
        read += batch;
        if (batch < DISPATCH_BATCH && !stoppedShort) break;
      }
    }
    return read;
  }
}
