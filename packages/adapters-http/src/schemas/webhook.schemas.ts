import { ALL_WEBHOOK_EVENTS, WEBHOOK_EVENT_TYPES, type WebhookDraft, type WebhookPatch } from '@uas/domain';
import * as v from 'valibot';
import {
  assertResourceIdentity,
  closedObject,
  identifiedResourceDocument,
  resourceDocument,
  text,
} from './json-api.schemas';
import { parseWith } from './validation';

export const WEBHOOK_TYPE = 'webhooks';

const url = v.pipe(
  text(),
  v.description(
    'Where events are POSTed: an absolute https URL (http only with WEBHOOK_ALLOW_HTTP=true), without credentials.',
  ),
);
/** Any strings pass the shape check; the domain refuses those not in the catalogue, naming the entry. */
const events = v.pipe(
  v.array(v.pipe(text(), v.metadata({ enum: [ALL_WEBHOOK_EVENTS, ...WEBHOOK_EVENT_TYPES] })), 'must be an array'),
  v.description(`The event types to receive (at least one), or ["${ALL_WEBHOOK_EVENTS}"] for all of them.`),
);
const enabled = v.pipe(v.boolean('must be true or false'), v.description('Whether events are sent to it.'));
const description = v.pipe(text(), v.description("The admins' note (at most 500 characters)."));

/** POST /v1/admin/webhooks: the endpoint; its secret is generated. */
export const createWebhookDocument = resourceDocument(
  closedObject({ url, events, enabled: v.optional(enabled), description: v.optional(description) }, 'attribute'),
  WEBHOOK_TYPE,
);

export function parseCreateWebhook(body: unknown): WebhookDraft {
  assertResourceIdentity(body, undefined, WEBHOOK_TYPE);
  return parseWith(createWebhookDocument, body).data.attributes;
}

/** PATCH /v1/admin/webhooks/{id}: any of the attributes; an absent one stays as it is. */
export const updateWebhookDocument = identifiedResourceDocument(
  closedObject(
    {
      url: v.optional(url),
      events: v.optional(events),
      enabled: v.optional(enabled),
      description: v.optional(description),
    },
    'attribute',
  ),
  WEBHOOK_TYPE,
);

export function parseUpdateWebhook(body: unknown, pathId: string): WebhookPatch {
  assertResourceIdentity(body, pathId, WEBHOOK_TYPE);
  return parseWith(updateWebhookDocument, body).data.attributes;
}
