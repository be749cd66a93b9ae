import {
  ALL_WEBHOOK_EVENTS,
  WEBHOOK_DISABLED_REASONS,
  WEBHOOK_EVENT_TYPES,
  type RevealedWebhook,
  type Webhook,
} from '@uas/domain';
import * as v from 'valibot';
import { timestamp } from './timestamp';
import { isoTimestamp } from './user.presenter';

export const WEBHOOKS_PATH = '/v1/admin/webhooks';

const described = <T extends v.GenericSchema>(schema: T, description: string) =>
  v.pipe(schema, v.description(description));

const webhookAttributes = {
  url: described(v.pipe(v.string(), v.url()), 'Where events are POSTed.'),
  events: described(
    v.array(v.picklist([ALL_WEBHOOK_EVENTS, ...WEBHOOK_EVENT_TYPES])),
    `The event types it receives; ["${ALL_WEBHOOK_EVENTS}"]: all of them.`,
  ),
  enabled: described(v.boolean(), 'Whether events are sent to it.'),
  description: v.string(),
  disabled_reason: described(
    v.nullable(v.picklist(WEBHOOK_DISABLED_REASONS)),
    'Why the service disabled it: `gone` (its receiver answered 410), `failing` (every delivery failed for 5 days); null when enabled or disabled by an admin.',
  ),
  failing_since: described(
    v.nullable(isoTimestamp()),
    'Since when every delivery failed; null while the last one succeeded.',
  ),
  created: isoTimestamp(),
  updated: isoTimestamp(),
};

/** An endpoint as the API shows it: never its signing secret. */
export const webhookResourceSchema = v.object({
  type: v.literal('webhooks'),
  id: v.pipe(v.string(), v.uuid()),
  attributes: v.object(webhookAttributes),
});

/** The same, with the signing secret: the answer of a creation and of a rotation only. */
const revealedWebhookResourceSchema = v.object({
  type: v.literal('webhooks'),
  id: v.pipe(v.string(), v.uuid()),
  attributes: v.object({
    ...webhookAttributes,
    secret: described(
      v.pipe(v.string(), v.startsWith('whsec_')),
      'The signing secret (Standard Webhooks: `whsec_` and the base64 of 32 bytes). Shown in this answer only: store it now.',
    ),
  }),
});

export const webhookDocumentSchema = v.object({ data: webhookResourceSchema });
export const revealedWebhookDocumentSchema = v.object({ data: revealedWebhookResourceSchema });
export const webhookListDocumentSchema = v.object({
  data: v.array(webhookResourceSchema),
  meta: v.object({ total: described(v.pipe(v.number(), v.integer()), 'How many endpoints there are.') }),
});

function webhookResource(webhook: Webhook): v.InferOutput<typeof webhookResourceSchema> {
  return {
    type: 'webhooks',
    id: webhook.id,
    attributes: {
      url: webhook.url,
      events: [...webhook.events],
      enabled: webhook.enabled,
      description: webhook.description,
      disabled_reason: webhook.disabledReason,
      failing_since: webhook.failingSince && timestamp(webhook.failingSince),
      created: timestamp(webhook.created),
      updated: timestamp(webhook.updated),
    },
  };
}

export const webhookDocument = (webhook: Webhook): v.InferOutput<typeof webhookDocumentSchema> => ({
  data: webhookResource(webhook),
});

export function revealedWebhookDocument({
  webhook,
  secret,
}: RevealedWebhook): v.InferOutput<typeof revealedWebhookDocumentSchema> {
  const resource = webhookResource(webhook);
  return { data: { ...resource, attributes: { ...resource.attributes, secret } } };
}

export const webhookListDocument = (webhooks: readonly Webhook[]): v.InferOutput<typeof webhookListDocumentSchema> => ({
  data: webhooks.map(webhookResource),
  meta: { total: webhooks.length },
});
