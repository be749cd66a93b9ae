import type { AuthService, IdentityLinks, UserIdentities } from '@uas/domain';
import { Hono } from 'hono';
import type { AppEnv } from '../app-env';
import { bearerAuth } from '../middleware/bearer-auth';
import { caller, requestContext } from '../network/request-context';
import { describeRoute } from '../openapi/route-description';
import {
  identityDocument,
  identityDocumentSchema,
  identityListDocument,
  identityListDocumentSchema,
} from '../presenters/identity.presenter';
import { linkRequestDocument, linkRequestDocumentSchema } from '../presenters/identity-link-request.presenter';
import {
  codeRedemptionBodySchema,
  linkRequestBodySchema,
  parseCodeRedemption,
  parseLinkRequest,
} from '../schemas/oauth.schemas';
import { jsonBody } from '../schemas/validation';
import { requireUuidParam } from './uuid-param';

const TAGS = ['Own account'];

/**
 * A user's own identities at providers, with a user access token: link one (begun here, carried
 * through the browser and the provider, completed here with the same token and the PKCE
 * verifier), list them, and remove one unless it is the account's last way in.
 */
export function meIdentitiesRoutes({
  userAuth,
  identityLinks,
  userIdentities,
}: {
  userAuth: AuthService;
  identityLinks: IdentityLinks;
  userIdentities: UserIdentities;
}) {
  const authenticated = bearerAuth(userAuth);
  return new Hono<AppEnv>()
    .post(
      '/v1/users/me/identities',
      describeRoute({
        operationId: 'startIdentityLink',
        summary: 'Begin linking an identity provider to your account',
        description:
          "Open `authorize_url` in the user's browser within 10 minutes: it goes on to the provider, then back to `redirect_to` with a one-time `code` (or `error`). Complete the link with that code and the PKCE verifier.",
        tags: TAGS,
        body: {
          schema: linkRequestBodySchema,
          example: {
            provider: 'github',
            redirect_to: '/settings/linked',
            code_challenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM',
          },
        },
        responses: { 201: { description: 'The link begun.', schema: linkRequestDocumentSchema } },
        errors: ['not_found'],
      }),
      authenticated,
      jsonBody(parseLinkRequest),
      async (c) => c.json(linkRequestDocument(await identityLinks.start(c.get('identity'), c.req.valid('json'))), 201),
    )
    .post(
      '/v1/users/me/identities/complete',
      describeRoute({
        operationId: 'completeIdentityLink',
        summary: 'Complete a link with the code the browser brought back',
        description:
          'By the same user who began it, with the PKCE verifier: a link carried through anyone else’s browser or redeemed with anyone else’s token never commits. The code is single use.',
        tags: TAGS,
        body: { schema: codeRedemptionBodySchema },
        responses: { 201: { description: 'The identity, linked.', schema: identityDocumentSchema } },
        errors: ['invalid_oauth_code', 'identity_already_linked'],
      }),
      authenticated,
      jsonBody(parseCodeRedemption),
      async (c) => {
        const { code, verifier } = c.req.valid('json');
        const linked = await identityLinks.complete(c.get('identity'), { code, verifier }, requestContext(c));
        return c.json(identityDocument(linked), 201);
      },
    )
    .get(
      '/v1/users/me/identities',
      describeRoute({
        operationId: 'listOwnIdentities',
        summary: 'List your identities at providers, oldest first',
        tags: TAGS,
        responses: { 200: { description: 'Your identities.', schema: identityListDocumentSchema } },
      }),
      authenticated,
      async (c) => c.json(identityListDocument(await userIdentities.list(c.get('identity').subjectId)), 200),
    )
    .delete(
      '/v1/users/me/identities/:id',
      describeRoute({
        operationId: 'unlinkOwnIdentity',
        summary: 'Remove one of your identities',
        description:
          'Refused (409 `last_sign_in_method`) while it is your only way in: set a password or link another first.',
        tags: TAGS,
        responses: { 204: { description: 'It no longer signs you in.' } },
        errors: ['last_sign_in_method'],
      }),
      authenticated,
      requireUuidParam('identity'),
      async (c) => {
        await userIdentities.unlink(c.get('identity').subjectId, c.req.param('id'), caller(c));
        return c.body(null, 204);
      },
    );
}
