import {
  WEBHOOK_DELIVERY_STATUSES,
  WEBHOOK_EVENT_TYPES,
  type WebhookDelivery,
  type WebhookDeliveryPage,
} from '@uas/domain';
import * as v from 'valibot';
import type { PageQuery } from '../schemas/list-query.schemas';
import { pageLinks, pageLinksSchema } from './page-links';
import { timestamp } from './timestamp';
import { isoTimestamp, optionalTimestamp } from './user.presenter';

export const WEBHOOK_DELIVERIES_PATH = '/v1/admin/webhooks/:id/deliveries';

const described = <T extends v.GenericSchema>(schema: T, description: string) =>
  v.pipe(schema, v.description(description));
const integer = v.pipe(v.number(), v.integer());

const webhookDeliveryResourceSchema = v.object({
  type: v.literal('webhook-deliveries'),
  id: described(v.string(), 'The `webhook-id` header the receiver sees: the same on every attempt and replay.'),
  attributes: v.object({
    event_type: v.picklist(WEBHOOK_EVENT_TYPES),
    sequence: described(
      v.nullable(integer),
      "The event's number in the audit trail (`data.sequence`); null for a test event.",
    ),
    status: described(
      v.picklist(WEBHOOK_DELIVERY_STATUSES),
      'pending: waiting for its next attempt, or being attempted; succeeded: the receiver answered 2xx; failed: given up after its last attempt, or the receiver answered 410.',
    ),
    attempts: described(integer, 'Attempts made so far, one in progress included.'),
    next_attempt: described(v.nullable(isoTimestamp()), 'When it is tried next; null once settled.'),
    last_status: described(v.nullable(integer), "The receiver's last HTTP status; null when it gave none."),
    last_error: described(
      v.nullable(v.string()),
      'Why the last attempt failed (a refused address, a timeout, a status).',
    ),
    last_duration_ms: v.nullable(integer),
    created: isoTimestamp(),
    delivered: v.nullable(isoTimestamp()),
  }),
});

export const webhookDeliveryListDocumentSchema = v.object({
  data: v.array(webhookDeliveryResourceSchema),
  links: pageLinksSchema,
  meta: v.object({ total: v.pipe(integer, v.description("How many deliveries the endpoint's log holds.")) }),
});

export const webhookQueuedDocumentSchema = v.object({
  meta: v.object({ queued: v.pipe(integer, v.description('How many deliveries were queued.')) }),
});

function deliveryResource(delivery: WebhookDelivery): v.InferOutput<typeof webhookDeliveryResourceSchema> {
  const settled = delivery.status !== 'pending';
  return {
    type: 'webhook-deliveries',
    id: delivery.id,
    attributes: {
      event_type: delivery.eventType,
      sequence: delivery.seq,
      status: delivery.status,
      attempts: delivery.attempts,
      next_attempt: settled ? null : timestamp(delivery.nextAttempt),
      last_status: delivery.lastStatus,
      last_error: delivery.lastError,
      last_duration_ms: delivery.lastDurationMs,
      created: timestamp(delivery.created),
      delivered: optionalTimestamp(delivery.delivered),
    },
  };
}

export function webhookDeliveryListDocument(
  webhookId: string,
  page: WebhookDeliveryPage,
  query: PageQuery,
): v.InferOutput<typeof webhookDeliveryListDocumentSchema> {
  return {
    data: page.deliveries.map(deliveryResource),
    links: pageLinks(WEBHOOK_DELIVERIES_PATH.replace(':id', webhookId), query, page.total),
    meta: { total: page.total },
  };
}
