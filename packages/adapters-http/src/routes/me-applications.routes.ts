import { NotFoundError, type ApplicationGrants, type AuthService } from '@uas/domain';
import { Hono } from 'hono';
import { createMiddleware } from 'hono/factory';
import type { AppEnv } from '../app-env';
import { bearerAuth } from '../middleware/bearer-auth';
import { caller } from '../network/request-context';
import { applicationGrantsExample } from '../openapi/examples';
import { describeRoute, withFragment } from '../openapi/route-description';
import {
  APPLICATIONS_PATH,
  applicationGrantListDocument,
  applicationGrantListDocumentSchema,
} from '../presenters/application-grant.presenter';

const TAGS = ['Own account'];
/** The OpenID engine's ids: URL-safe tokens. Anything else names no grant. */
const GRANT_ID = /^[A-Za-z0-9_-]{1,128}$/;

/** 404 for a `:grant_id` that cannot be an engine's id, before any store is asked. */
const knownGrantShape = withFragment(
  createMiddleware<AppEnv>(async (c, next) => {
    if (!GRANT_ID.test(c.req.param('grant_id') ?? '')) throw new NotFoundError('application grant');
    await next();
  }),
  {
    pathParameters: [
      {
        name: 'grant_id',
        description: 'The grant, as listed.',
        schema: { type: 'string', pattern: GRANT_ID.source },
      },
    ],
    errors: ['not_found'],
  },
);

/** A user's applications, with a user access token: the OpenID grants they gave, and revoking one. */
export function meApplicationsRoutes({
  userAuth,
  applicationGrants,
}: {
  userAuth: AuthService;
  applicationGrants: ApplicationGrants;
}) {
  const authenticated = bearerAuth(userAuth);
  return new Hono<AppEnv>()
    .get(
      APPLICATIONS_PATH,
      describeRoute({
        operationId: 'listOwnApplications',
        summary: 'List the applications you let sign you in, oldest first',
        description: 'Each with the scopes you granted it.',
        tags: TAGS,
        responses: {
          200: {
            description: 'Your grants.',
            schema: applicationGrantListDocumentSchema,
            example: applicationGrantsExample,
          },
        },
      }),
      authenticated,
      async (c) => c.json(applicationGrantListDocument(await applicationGrants.list(c.get('identity').subjectId)), 200),
    )
    .delete(
      `${APPLICATIONS_PATH}/:grant_id`,
      describeRoute({
        operationId: 'revokeOwnApplication',
        summary: 'Revoke an application’s access',
        description:
          "Its codes and tokens stop working at once; the application asks for consent again at the next sign-in. Another user's grant is not found (404).",
        tags: TAGS,
        responses: { 204: { description: 'Revoked.' } },
      }),
      authenticated,
      knownGrantShape,
      async (c) => {
        await applicationGrants.revoke(c.get('identity').subjectId, c.req.param('grant_id'), caller(c));
        return c.body(null, 204);
      },
    );
}
