import type { AdminAccess, WebhookService } from '@uas/domain';
import { Hono } from 'hono';
import type { AdminEnv } from '../app-env';
import { adminAccess } from '../middleware/admin-access';
import { caller } from '../network/request-context';
import { revealedWebhookExample, webhookExample } from '../openapi/examples';
import { describeRoute } from '../openapi/route-description';
import {
  revealedWebhookDocument,
  revealedWebhookDocumentSchema,
  WEBHOOKS_PATH,
  webhookDocument,
  webhookDocumentSchema,
  webhookListDocument,
  webhookListDocumentSchema,
} from '../presenters/webhook.presenter';
import {
  createWebhookDocument,
  parseCreateWebhook,
  parseUpdateWebhook,
  updateWebhookDocument,
  WEBHOOK_TYPE,
} from '../schemas/webhook.schemas';
import { jsonBody } from '../schemas/validation';
import { requireUuidParam } from './uuid-param';

const TAGS = ['Webhooks'];
const webhook = (description: string) =>
  ({ description, schema: webhookDocumentSchema, example: webhookExample }) as const;
const revealed = (description: string) =>
  ({ description, schema: revealedWebhookDocumentSchema, example: revealedWebhookExample }) as const;
const URL_RULES =
  '`url` must be an absolute https URL without a user name or password (http only where the operator set WEBHOOK_ALLOW_HTTP=true), and not an IP address the service may not reach (loopback, private, link-local, any special-purpose range; unless WEBHOOK_ALLOW_PRIVATE_ADDRESSES=true); `events` lists event types of the catalogue (at least one), or is `["*"]` for all; `description` is at most 500 characters. Each problem → 422 with its pointer.';

/**
 * The owners' webhook endpoints: where events of the audit trail are POSTed, signed with each
 * endpoint's secret (Standard Webhooks). The secret is answered on creation and rotation only.
 */
export function adminWebhooksRoutes({
  webhooks,
  adminAccess: access,
}: {
  webhooks: WebhookService;
  adminAccess: AdminAccess;
}) {
  const owners = adminAccess(access, 'settings.manage');
  const knownWebhook = requireUuidParam('webhook');
  return new Hono<AdminEnv>()
    .get(
      WEBHOOKS_PATH,
      describeRoute({
        operationId: 'listWebhooks',
        summary: 'List the webhook endpoints, oldest first',
        description: 'Never their secrets.',
        tags: TAGS,
        responses: { 200: { description: 'Every endpoint.', schema: webhookListDocumentSchema } },
      }),
      owners,
      async (c) => c.json(webhookListDocument(await webhooks.list()), 200),
    )
    .post(
      WEBHOOKS_PATH,
      describeRoute({
        operationId: 'createWebhook',
        summary: 'Add a webhook endpoint; its signing secret is answered once',
        description: `The endpoint receives the events committed from now on (no backlog; replay reaches back). Its secret (\`whsec_…\`) is generated, answered in \`attributes.secret\` of this answer only, and stored sealed: keep it now. \`enabled\` defaults to true, \`description\` to ''. ${URL_RULES}`,
        tags: TAGS,
        body: {
          schema: createWebhookDocument,
          example: {
            data: {
              type: WEBHOOK_TYPE,
              attributes: { url: 'https://crm.example.com/hooks/uas', events: ['user.created', 'user.deleted'] },
            },
          },
        },
        responses: { 201: { ...revealed('The endpoint, with its secret (this once).'), headers: ['Location'] } },
        errors: ['resource_conflict'],
      }),
      owners,
      jsonBody(parseCreateWebhook),
      async (c) => {
        const created = await webhooks.create(c.req.valid('json'), caller(c));
        return c.json(revealedWebhookDocument(created), 201, { Location: `${WEBHOOKS_PATH}/${created.webhook.id}` });
      },
    )
    .get(
      `${WEBHOOKS_PATH}/:id`,
      describeRoute({
        operationId: 'getWebhook',
        summary: 'Get a webhook endpoint',
        description: 'Never its secret.',
        tags: TAGS,
        responses: { 200: webhook('The endpoint.') },
      }),
      owners,
      knownWebhook,
      async (c) => c.json(webhookDocument(await webhooks.find(c.req.param('id'))), 200),
    )
    .patch(
      `${WEBHOOKS_PATH}/:id`,
      describeRoute({
        operationId: 'updateWebhook',
        summary: "Change a webhook endpoint's URL, events, state or description",
        description: `An attribute left out stays as it is. Enabling an endpoint the service disabled (\`disabled_reason\` \`gone\` or \`failing\`) starts it afresh. ${URL_RULES}`,
        tags: TAGS,
        body: {
          schema: updateWebhookDocument,
          example: { data: { type: WEBHOOK_TYPE, attributes: { events: ['*'], enabled: true } } },
        },
        responses: { 200: webhook('The endpoint as changed.') },
        errors: ['resource_conflict'],
      }),
      owners,
      knownWebhook,
      jsonBody((body, c) => parseUpdateWebhook(body, c.req.param('id') ?? '')),
      async (c) =>
        c.json(webhookDocument(await webhooks.update(c.req.param('id'), c.req.valid('json'), caller(c))), 200),
    )
    .delete(
      `${WEBHOOKS_PATH}/:id`,
      describeRoute({
        operationId: 'deleteWebhook',
        summary: 'Delete a webhook endpoint',
        description: 'Its deliveries, sent or waiting, go with it: nothing more is sent to it.',
        tags: TAGS,
        responses: { 204: { description: 'Deleted.' } },
      }),
      owners,
      knownWebhook,
      async (c) => {
        await webhooks.delete(c.req.param('id'), caller(c));
        return c.body(null, 204);
      },
    )
    .post(
      `${WEBHOOKS_PATH}/:id/secret`,
      describeRoute({
        operationId: 'rotateWebhookSecret',
        summary: "Rotate a webhook endpoint's signing secret; the new one is answered once",
        description:
          'Every delivery is signed with the new secret and, for 24 hours, with the replaced one too (two `v1,` signatures in `webhook-signature`), so the receiver can switch without losing one. A secret replaced by an earlier rotation stops signing at once. No body.',
        tags: TAGS,
        responses: { 200: revealed('The endpoint, with its new secret (this once).') },
      }),
      owners,
      knownWebhook,
      async (c) => c.json(revealedWebhookDocument(await webhooks.rotateSecret(c.req.param('id'), caller(c))), 200),
    );
}
