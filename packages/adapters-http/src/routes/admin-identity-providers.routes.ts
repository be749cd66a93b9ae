import type { AdminAccess, IdentityProviderService } from '@uas/domain';
import { Hono } from 'hono';
import type { AdminEnv } from '../app-env';
import { adminAccess } from '../middleware/admin-access';
import { caller } from '../network/request-context';
import { identityProviderExample } from '../openapi/examples';
import { describeRoute } from '../openapi/route-description';
import {
  IDENTITY_PROVIDERS_PATH,
  identityProviderDocument,
  identityProviderDocumentSchema,
  identityProviderListDocument,
  identityProviderListDocumentSchema,
} from '../presenters/identity-provider.presenter';
import {
  createIdentityProviderDocument,
  IDENTITY_PROVIDER_TYPE,
  parseCreateIdentityProvider,
  parseUpdateIdentityProvider,
  updateIdentityProviderDocument,
} from '../schemas/identity-provider.schemas';
import { jsonBody } from '../schemas/validation';
import { requireUuidParam } from './uuid-param';

const TAGS = ['Identity providers'];
const provider = (description: string) =>
  ({ description, schema: identityProviderDocumentSchema, example: identityProviderExample }) as const;
const RULES =
  '`slug`: 1 to 40 lower-case letters, digits and inner dashes; `kind`: `oidc`, `github`, `google`, `microsoft` or `apple`; `issuer`: required for `oidc`, an absolute https URL (http only with IDENTITY_PROVIDER_ALLOW_HTTP=true) without credentials, query or fragment; `client_id`: 1 to 255 characters; `client_secret`: required for every kind but `oidc`, at most 4096 characters; `scopes`: at most 20, each 1 to 100 characters without spaces. Each problem → 422 with its pointer. The secret is never answered (only `client_secret_set`) nor shown in the audit trail.';

/**
 * The identity providers users may sign in with, as owners manage them: a generic OpenID Connect
 * provider by its issuer, or a preset. The client secret is write-only.
 */
export function adminIdentityProvidersRoutes({
  identityProviders: providers,
  adminAccess: access,
}: {
  identityProviders: IdentityProviderService;
  adminAccess: AdminAccess;
}) {
  const owners = adminAccess(access, 'settings.manage');
  const knownProvider = requireUuidParam('identity provider');
  const callbackUrl = providers.callbackUrl.bind(providers);
  return new Hono<AdminEnv>()
    .get(
      IDENTITY_PROVIDERS_PATH,
      describeRoute({
        operationId: 'listIdentityProviders',
        summary: 'List the identity providers, oldest first',
        description: 'Never their client secrets.',
        tags: TAGS,
        responses: { 200: { description: 'Every provider.', schema: identityProviderListDocumentSchema } },
      }),
      owners,
      async (c) => c.json(identityProviderListDocument(await providers.list(), callbackUrl), 200),
    )
    .post(
      IDENTITY_PROVIDERS_PATH,
      describeRoute({
        operationId: 'createIdentityProvider',
        summary: 'Add an identity provider users may sign in with',
        description: `Register \`callback_url\` of the answer as the redirect URI at the provider. \`enabled\` defaults to true, \`auto_link\` to false, \`scopes\` to []. Another provider with the slug → 409 \`slug_taken\`. ${RULES}`,
        tags: TAGS,
        body: {
          schema: createIdentityProviderDocument,
          example: {
            data: {
              type: IDENTITY_PROVIDER_TYPE,
              attributes: {
                slug: 'github',
                kind: 'github',
                client_id: 'Iv1.8a61f9b3a7aba766',
                client_secret: 'the secret GitHub showed',
              },
            },
          },
        },
        responses: { 201: { ...provider('The provider.'), headers: ['Location'] } },
        errors: ['slug_taken', 'resource_conflict'],
      }),
      owners,
      jsonBody(parseCreateIdentityProvider),
      async (c) => {
        const created = await providers.create(c.req.valid('json'), caller(c));
        return c.json(identityProviderDocument(created, callbackUrl), 201, {
          Location: `${IDENTITY_PROVIDERS_PATH}/${created.id}`,
        });
      },
    )
    .get(
      `${IDENTITY_PROVIDERS_PATH}/:id`,
      describeRoute({
        operationId: 'getIdentityProvider',
        summary: 'Get an identity provider',
        description: 'Never its client secret.',
        tags: TAGS,
        responses: { 200: provider('The provider.') },
      }),
      owners,
      knownProvider,
      async (c) => c.json(identityProviderDocument(await providers.find(c.req.param('id')), callbackUrl), 200),
    )
    .patch(
      `${IDENTITY_PROVIDERS_PATH}/:id`,
      describeRoute({
        operationId: 'updateIdentityProvider',
        summary: "Change an identity provider's issuer, client, scopes or state",
        description: `An attribute left out stays as it is; the slug and kind never change (delete and add again). \`client_secret\` replaces the stored secret; null removes it (\`oidc\` only). Disabling a provider stops new sign-ins with it; its users' identities stay. ${RULES}`,
        tags: TAGS,
        body: {
          schema: updateIdentityProviderDocument,
          example: { data: { type: IDENTITY_PROVIDER_TYPE, attributes: { enabled: false } } },
        },
        responses: { 200: provider('The provider as changed.') },
        errors: ['resource_conflict'],
      }),
      owners,
      knownProvider,
      jsonBody((body, c) => parseUpdateIdentityProvider(body, c.req.param('id') ?? '')),
      async (c) =>
        c.json(
          identityProviderDocument(
            await providers.update(c.req.param('id'), c.req.valid('json'), caller(c)),
            callbackUrl,
          ),
          200,
        ),
    )
    .delete(
      `${IDENTITY_PROVIDERS_PATH}/:id`,
      describeRoute({
        operationId: 'deleteIdentityProvider',
        summary: 'Delete an identity provider',
        description:
          "Its users' identities through it and its sign-ins in flight go with it: those users sign in another way (a user who had no other way in recovers the account by email).",
        tags: TAGS,
        responses: { 204: { description: 'Deleted.' } },
      }),
      owners,
      knownProvider,
      async (c) => {
        await providers.delete(c.req.param('id'), caller(c));
        return c.body(null, 204);
      },
    );
}
