import type { AdminAccess, OAuthClientService } from '@uas/domain';
import { Hono } from 'hono';
import type { AdminEnv } from '../app-env';
import { adminAccess } from '../middleware/admin-access';
import { caller } from '../network/request-context';
import { oauthClientExample, revealedOAuthClientExample } from '../openapi/examples';
import { describeRoute } from '../openapi/route-description';
import {
  OAUTH_CLIENTS_PATH,
  oauthClientDocument,
  oauthClientDocumentSchema,
  oauthClientListDocument,
  oauthClientListDocumentSchema,
  revealedOAuthClientDocument,
  revealedOAuthClientDocumentSchema,
} from '../presenters/oauth-client.presenter';
import {
  createOAuthClientDocument,
  OAUTH_CLIENT_TYPE,
  parseCreateOAuthClient,
  parseUpdateOAuthClient,
  updateOAuthClientDocument,
} from '../schemas/oauth-client.schemas';
import { jsonBody } from '../schemas/validation';
import { requireUuidParam } from './uuid-param';

const TAGS = ['OAuth clients'];
const client = (description: string) =>
  ({ description, schema: oauthClientDocumentSchema, example: oauthClientExample }) as const;
const revealed = (description: string) =>
  ({ description, schema: revealedOAuthClientDocumentSchema, example: revealedOAuthClientExample }) as const;
const RULES =
  '`redirect_uris` (1 to 20) and `post_logout_redirect_uris` (0 to 20) are matched exactly: absolute, printable ASCII, no fragment, no `*`, no user name or password, never `javascript:`/`data:`/`vbscript:`/`file:`; https on a non-loopback host for a `web` client; loopback http (any port), claimed https or a reverse-domain private-use scheme for a `native` one. `scopes` among `openid email profile metadata app offline_access` (`openid` always added). `name` 1 to 100 characters. Each problem → 422 with its pointer.';

/**
 * The owners' OAuth clients: the applications that sign their users in through this service. A
 * confidential client's secret is answered on creation and rotation only.
 */
export function adminOAuthClientsRoutes({
  oauthClients,
  adminAccess: access,
}: {
  oauthClients: OAuthClientService;
  adminAccess: AdminAccess;
}) {
  const owners = adminAccess(access, 'settings.manage');
  const knownClient = requireUuidParam('OAuth client');
  return new Hono<AdminEnv>()
    .get(
      OAUTH_CLIENTS_PATH,
      describeRoute({
        operationId: 'listOAuthClients',
        summary: 'List the OAuth clients, oldest first',
        description: 'Never their secrets.',
        tags: TAGS,
        responses: { 200: { description: 'Every client.', schema: oauthClientListDocumentSchema } },
      }),
      owners,
      async (c) => c.json(oauthClientListDocument(await oauthClients.list()), 200),
    )
    .post(
      OAUTH_CLIENTS_PATH,
      describeRoute({
        operationId: 'createOAuthClient',
        summary: 'Register an application; a confidential one’s secret is answered once',
        description: `\`application_type\` defaults to \`web\`, \`scopes\` to \`openid email profile\`, \`first_party\` to false. A \`confidential\` client's secret is generated, answered in \`attributes.client_secret\` of this answer only, and stored sealed: keep it now. ${RULES}`,
        tags: TAGS,
        body: {
          schema: createOAuthClientDocument,
          example: {
            data: {
              type: OAUTH_CLIENT_TYPE,
              attributes: {
                name: 'Acme CRM',
                type: 'confidential',
                redirect_uris: ['https://crm.example.com/auth/callback'],
              },
            },
          },
        },
        responses: { 201: { ...revealed('The client, with its secret (this once).'), headers: ['Location'] } },
      }),
      owners,
      jsonBody(parseCreateOAuthClient),
      async (c) => {
        const created = await oauthClients.create(c.req.valid('json'), caller(c));
        return c.json(revealedOAuthClientDocument(created), 201, {
          Location: `${OAUTH_CLIENTS_PATH}/${created.client.id}`,
        });
      },
    )
    .get(
      `${OAUTH_CLIENTS_PATH}/:id`,
      describeRoute({
        operationId: 'getOAuthClient',
        summary: 'Get an OAuth client',
        description: 'Never its secret.',
        tags: TAGS,
        responses: { 200: client('The client.') },
      }),
      owners,
      knownClient,
      async (c) => c.json(oauthClientDocument(await oauthClients.find(c.req.param('id'))), 200),
    )
    .patch(
      `${OAUTH_CLIENTS_PATH}/:id`,
      describeRoute({
        operationId: 'updateOAuthClient',
        summary: "Change an OAuth client's name, redirect URIs, scopes or first-party flag",
        description: `An attribute left out stays as it is; \`type\` and \`application_type\` never change. ${RULES}`,
        tags: TAGS,
        body: {
          schema: updateOAuthClientDocument,
          example: {
            data: { type: OAUTH_CLIENT_TYPE, attributes: { redirect_uris: ['https://crm.example.com/cb'] } },
          },
        },
        responses: { 200: client('The client as changed.') },
        errors: ['resource_conflict'],
      }),
      owners,
      knownClient,
      jsonBody((body, c) => parseUpdateOAuthClient(body, c.req.param('id') ?? '')),
      async (c) =>
        c.json(oauthClientDocument(await oauthClients.update(c.req.param('id'), c.req.valid('json'), caller(c))), 200),
    )
    .delete(
      `${OAUTH_CLIENTS_PATH}/:id`,
      describeRoute({
        operationId: 'deleteOAuthClient',
        summary: 'Delete an OAuth client',
        description: 'Its grants, codes and tokens go with it: they stop working at once.',
        tags: TAGS,
        responses: { 204: { description: 'Deleted.' } },
      }),
      owners,
      knownClient,
      async (c) => {
        await oauthClients.delete(c.req.param('id'), caller(c));
        return c.body(null, 204);
      },
    )
    .post(
      `${OAUTH_CLIENTS_PATH}/:id/rotate-secret`,
      describeRoute({
        operationId: 'rotateOAuthClientSecret',
        summary: "Replace a confidential client's secret; the new one is answered once",
        description:
          'The old secret stops working at once. A public client has none (422, pointer `/data/attributes/type`). No body.',
        tags: TAGS,
        responses: { 200: revealed('The client, with its new secret (this once).') },
        errors: ['invalid_attribute'],
      }),
      owners,
      knownClient,
      async (c) =>
        c.json(revealedOAuthClientDocument(await oauthClients.rotateSecret(c.req.param('id'), caller(c))), 200),
    );
}
