import { initiatorOf, type AdminAccess, type AuthService } from '@uas/domain';
import { Hono } from 'hono';
import type { AppEnv } from '../app-env';
import { adminAccess } from '../middleware/admin-access';
import { loginSessionsExample } from '../openapi/examples';
import { requestContext } from '../network/request-context';
import { describeRoute } from '../openapi/route-description';
import { loginSessionListDocument, loginSessionListDocumentSchema } from '../presenters/login-session.presenter';
import { requireUuidParam } from './uuid-param';

const TAGS = ['Admin users'];

/** A user's sessions as an admin sees and ends them. */
export function adminUserSessionsRoutes({
  adminAccess: access,
  userAuth,
}: {
  adminAccess: AdminAccess;
  userAuth: AuthService;
}) {
  const knownUser = requireUuidParam('user');
  return new Hono<AppEnv>()
    .get(
      '/v1/admin/users/:id/sessions',
      describeRoute({
        operationId: 'listUserSessions',
        summary: 'List where a user is signed in: their live sessions, most recently used first',
        description: 'At most 100. No token is ever shown.',
        tags: TAGS,
        responses: {
          200: {
            description: "The user's live sessions.",
            schema: loginSessionListDocumentSchema,
            example: loginSessionsExample,
          },
        },
      }),
      adminAccess(access, 'users.read'),
      knownUser,
      async (c) => c.json(loginSessionListDocument(await userAuth.sessionsOf(c.req.param('id'))), 200),
    )
    .delete(
      '/v1/admin/users/:id/sessions',
      describeRoute({
        operationId: 'endUserSessions',
        summary: 'End every session of a user',
        description: 'Their refresh and access tokens stop working at once.',
        tags: TAGS,
        responses: { 204: { description: 'Every session of the user has ended.' } },
      }),
      adminAccess(access, 'sessions.end'),
      knownUser,
      async (c) => {
        await userAuth.endAllSessions(c.req.param('id'), initiatorOf(c.get('identity'), requestContext(c)));
        return c.body(null, 204);
      },
    )
    .delete(
      '/v1/admin/users/:id/sessions/:sessionId',
      describeRoute({
        operationId: 'endUserSession',
        summary: 'End one session of a user',
        description: 'Its refresh and access tokens stop working at once. Not a live session of that user → 404.',
        tags: TAGS,
        responses: { 204: { description: 'The session has ended.' } },
      }),
      adminAccess(access, 'sessions.end'),
      knownUser,
      requireUuidParam('session', 'sessionId'),
      async (c) => {
        await userAuth.endSession(
          c.req.param('id'),
          c.req.param('sessionId'),
          initiatorOf(c.get('identity'), requestContext(c)),
        );
        return c.body(null, 204);
      },
    );
}
