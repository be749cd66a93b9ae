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
/** Client ids: URL-safe tokens. Anything else names no application. */
const CLIENT_ID = /^[A-Za-z0-9_-]{1,128}$/;

/** 404 for a `:client_id` that cannot be a client's id, before any store is asked. */
const knownGrantShape = withFragment(
  createMiddleware<AppEnv>(async (c, next) => {
    if (!CLIENT_ID.test(c.req.param('client_id') ?? '')) throw new NotFoundError('application');
    await next();
  }),
  {
    pathParameters: [
      {
        name: 'client_id',
        description: 'The application (its client id), as listed.',
        schema: { type: 'string', pattern: CLIENT_ID.source },
      },
    ],
    errors: ['not_found'],
  },
);

/** A user's applications, with a user access token: the OpenID grants they gave, by application, and revoking one's. */
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
        description:
          'One entry per application, however many browsers you signed in from: the scopes you granted it, since when you did.',
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
      `${APPLICATIONS_PATH}/:client_id`,
      describeRoute({
        operationId: 'revokeOwnApplication',
        summary: 'Revoke an application’s access',
        description:
          'Revokes every grant you gave it (one per browser you signed in from): its codes and tokens stop working at once; the application asks for consent again at the next sign-in. An application you never let in is not found (404).',
        tags: TAGS,
        responses: { 204: { description: 'Revoked.' } },
      }),
      authenticated,
      knownGrantShape,
      async (c) => {
        await applicationGrants.revoke(c.get('identity').subjectId, c.req.param('client_id'), caller(c));
        return c.body(null, 204);
      },
    );
}
