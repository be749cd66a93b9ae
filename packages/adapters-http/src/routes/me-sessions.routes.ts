import { initiatorOf, type AuthService } from '@uas/domain';
import { Hono } from 'hono';
import type { AppEnv } from '../app-env';
import { bearerAuth } from '../middleware/bearer-auth';
import { loginSessionsExample } from '../openapi/examples';
import { requestContext } from '../network/request-context';
import { describeRoute } from '../openapi/route-description';
import { loginSessionListDocument, loginSessionListDocumentSchema } from '../presenters/login-session.presenter';
import { requireUuidParam } from './uuid-param';

const TAGS = ['Own account'];

/** A user's own sessions, with a user access token: where they are signed in, and ending one. */
export function meSessionsRoutes({ userAuth }: { userAuth: AuthService }) {
  const authenticated = bearerAuth(userAuth);
  return new Hono<AppEnv>()
    .get(
      '/v1/users/me/sessions',
      describeRoute({
        operationId: 'listOwnSessions',
        summary: 'List where you are signed in: your live sessions, most recently used first',
        tags: TAGS,
        responses: {
          200: {
            description: 'Your live sessions.',
            schema: loginSessionListDocumentSchema,
            example: loginSessionsExample,
          },
        },
      }),
      authenticated,
      async (c) => c.json(loginSessionListDocument(await userAuth.sessionsOf(c.get('identity').subjectId)), 200),
    )
    .delete(
      '/v1/users/me/sessions/:sessionId',
      describeRoute({
        operationId: 'endOwnSession',
        summary: 'End one of your sessions',
        description: 'Its tokens stop working at once; naming the session of the token used logs this device out.',
        tags: TAGS,
        responses: { 204: { description: 'The session has ended.' } },
      }),
      authenticated,
      requireUuidParam('session', 'sessionId'),
      async (c) => {
        const identity = c.get('identity');
        await userAuth.endSession(
          identity.subjectId,
          c.req.param('sessionId'),
          initiatorOf(identity, requestContext(c)),
        );
        return c.body(null, 204);
      },
    );
}
