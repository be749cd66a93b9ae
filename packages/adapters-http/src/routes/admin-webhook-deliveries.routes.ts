import type { AdminAccess, WebhookDeliveryService } from '@uas/domain';
import { Hono } from 'hono';
import type { AppEnv } from '../app-env';
import { adminAccess } from '../middleware/admin-access';
import { caller } from '../network/request-context';
import { webhookDeliveriesExample } from '../openapi/examples';
import { describeRoute } from '../openapi/route-description';
import {
  WEBHOOK_DELIVERIES_PATH,
  webhookDeliveryListDocument,
  webhookDeliveryListDocumentSchema,
  webhookQueuedDocumentSchema,
} from '../presenters/webhook-delivery.presenter';
import { pageParameters, parsePageQuery, type PageQueryInput } from '../schemas/list-query.schemas';
import { decodeQueryString } from '../schemas/query-string';
import { queryParameters, jsonBody } from '../schemas/validation';
import { parseReplaySince, replaySinceBodySchema } from '../schemas/webhook-replay.schemas';
import { requireUuidParam } from './uuid-param';

const TAGS = ['Webhooks'];
const WEBHOOK_PATH = '/v1/admin/webhooks/:id';
const queued = (description: string) => ({
  description,
  schema: webhookQueuedDocumentSchema,
  example: { meta: { queued: 1 } },
});

/** An endpoint's delivery log, replays and test events, for owners (`settings.manage`). */
export function adminWebhookDeliveriesRoutes(deps: {
  webhookDeliveries: WebhookDeliveryService;
  adminAccess: AdminAccess;
}) {
  const { webhookDeliveries: deliveries } = deps;
  const knownWebhook = requireUuidParam('webhook');
  return new Hono<AppEnv>()
    .get(
      WEBHOOK_DELIVERIES_PATH,
      describeRoute({
        operationId: 'listWebhookDeliveries',
        summary: "List an endpoint's deliveries, newest first, a page at a time",
        description:
          'Each event sent (or to be sent) to the endpoint, with its status, attempts, next attempt and the last answer. The id is the `webhook-id` header the receiver saw.',
        tags: TAGS,
        query: pageParameters('Deliveries'),
        responses: {
          200: {
            description: 'One page of deliveries.',
            schema: webhookDeliveryListDocumentSchema,
            example: webhookDeliveriesExample,
          },
        },
      }),
      adminAccess(deps.adminAccess, 'settings.manage'),
      knownWebhook,
      queryParameters<PageQueryInput, ReturnType<typeof parsePageQuery>>((c) =>
        parsePageQuery(decodeQueryString(c.req.url)),
      ),
      async (c) => {
        const query = c.req.valid('query');
        const id = c.req.param('id');
        return c.json(webhookDeliveryListDocument(id, await deliveries.list(id, query), query), 200);
      },
    )
    .post(
      `${WEBHOOK_DELIVERIES_PATH}/:deliveryId/replay`,
      describeRoute({
        operationId: 'replayWebhookDelivery',
        summary: 'Send one delivery again',
        description:
          'The delivery is due at once, under the same `webhook-id` and with the same body, with every retry of the schedule ahead of it again (`webhook.replayed`). One being attempted is left to that attempt.',
        tags: TAGS,
        responses: { 202: queued('Queued.') },
      }),
      adminAccess(deps.adminAccess, 'settings.manage'),
      knownWebhook,
      async (c) => {
        await deliveries.replay(caller(c), c.req.param('id'), c.req.param('deliveryId'));
        return c.json({ meta: { queued: 1 } }, 202);
      },
    )
    .post(
      `${WEBHOOK_PATH}/replay`,
      describeRoute({
        operationId: 'replayWebhookEvents',
        summary: 'Send every event since a number again',
        description:
          'Every event from number `since` (`data.sequence`) up to the last one the endpoint was sent, of the types it subscribes to, is due again at once, each under its `webhook-id` (`webhook.replayed`). Events the endpoint had no delivery of (it was created later) are delivered too, while the audit trail still holds them.',
        tags: TAGS,
        body: { schema: replaySinceBodySchema, example: { since: 1200 } },
        responses: { 202: queued('How many deliveries were queued.') },
      }),
      adminAccess(deps.adminAccess, 'settings.manage'),
      knownWebhook,
      jsonBody(parseReplaySince),
      async (c) => {
        const count = await deliveries.replaySince(caller(c), c.req.param('id'), c.req.valid('json').since);
        return c.json({ meta: { queued: count } }, 202);
      },
    )
    .post(
      `${WEBHOOK_PATH}/test`,
      describeRoute({
        operationId: 'sendWebhookTest',
        summary: 'Send a test event',
        description:
          'Queues a `webhook.test` event to the endpoint, under a `webhook-id` of its own; its delivery shows in the log.',
        tags: TAGS,
        responses: { 202: queued('Queued.') },
      }),
      adminAccess(deps.adminAccess, 'settings.manage'),
      knownWebhook,
      async (c) => {
        await deliveries.sendTest(c.req.param('id'));
        return c.json({ meta: { queued: 1 } }, 202);
      },
    );
}
