import type { AuditEvent } from '../audit/audit-event.ts';
import { deliveryId, webhookPayload } from './delivery-payload.ts';
import type { DispatchTarget, NewWebhookDelivery, WebhookDeliveryRepository } from './webhook-delivery.repository.ts';
import { webhookEventTypeOf, webhookReceives, type WebhookEventSelector } from './webhook-events.ts';

/** Audit events one dispatch transaction reads at most for one endpoint. */
export const DISPATCH_BATCH = 500;

/**
 * The deliveries to `target` of the events it subscribed to among `events`: one per event, with
 * the id derived from the endpoint and the event's place, so a redo makes the same ones.
 */
export const deliveriesOf = (target: DispatchTarget, events: readonly AuditEvent[]): NewWebhookDelivery[] =>
  events.flatMap((event) => {
    const type = webhookEventTypeOf(event);
    if (type === null || !webhookReceives(target.events as readonly WebhookEventSelector[], type)) return [];
    return [
      {
        id: deliveryId(target.id, event.seq),
        webhookId: target.id,
        seq: event.seq,
        eventType: type,
        payload: webhookPayload(type, event),
        created: event.time,
      },
    ];
  });

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
    for (const target of await deliveries.dispatchTargets()) {
      for (;;) {
        const batch = await deliveries.dispatch(target.id, DISPATCH_BATCH, deliveriesOf);
        read += batch;
        if (batch < DISPATCH_BATCH) break;
      }
    }
    return read;
  }
}
