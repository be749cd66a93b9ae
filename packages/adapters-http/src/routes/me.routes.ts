import type { AuthService, SelfService } from '@uas/domain';
import { Hono } from 'hono';
import type { AppEnv, AuthenticatedEnv } from '../app-env';
import { bearerAuth } from '../middleware/bearer-auth';
import { requestContext } from '../network/request-context';
import { userExample } from '../openapi/examples';
import { describeRoute, IF_MATCH_HEADER } from '../openapi/route-description';
import { ifMatchVersions, userETag } from '../presenters/user-etag';
import { userDocument, userDocumentSchema } from '../presenters/user.presenter';
import { assertResourceIdentity } from '../schemas/json-api.schemas';
import { parseSelfUpdate, selfUpdateDocument } from '../schemas/user.schemas';
import { jsonBody } from '../schemas/validation';

const TAGS = ['Own account'];
const user = (description: string) =>
  ({ description, schema: userDocumentSchema, headers: ['ETag'], example: userExample }) as const;

/** A user's own account, with a user access token. */
export function meRoutes({ self, userAuth }: { self: SelfService; userAuth: AuthService }) {
  const authenticated = bearerAuth(userAuth);
  return new Hono<AppEnv>()
    .get(
      '/v1/users/me',
      describeRoute({
        operationId: 'getOwnAccount',
        summary: 'Read your own account',
        description: 'A token outliving its deleted account finds nothing (404).',
        tags: TAGS,
        responses: { 200: user('Your account.') },
        errors: ['not_found'],
      }),
      authenticated,
      async (c) => {
        const user = await self.me(c.get('identity'));
        return c.json(userDocument(user), 200, { ETag: userETag(user) });
      },
    )
    .patch(
      '/v1/users/me',
      describeRoute({
        operationId: 'updateOwnAccount',
        summary: 'Change your name, metadata or password',
        description:
          'A new password needs `current_password`. `email`, `app` or `active` → 403: only an administrator changes them. The next token carries the new claims.',
        tags: TAGS,
        headers: [IF_MATCH_HEADER],
        body: {
          schema: selfUpdateDocument,
          example: { data: { type: 'users', attributes: { metadata: { locale: 'fr-FR' } } } },
        },
        responses: { 200: user('Your changed account.') },
        errors: ['resource_conflict', 'precondition_failed', 'too_many_attempts', 'not_found'],
      }),
      authenticated,
      jsonBody<ReturnType<typeof parseSelfUpdate>, AuthenticatedEnv>((body, c) => {
        assertResourceIdentity(body, c.get('identity').subjectId);
        return parseSelfUpdate(body);
      }),
      async (c) => {
        const user = await self.update(
          c.get('identity'),
          c.req.valid('json'),
          ifMatchVersions(c.req.header('If-Match')),
          requestContext(c),
        );
        return c.json(userDocument(user), 200, { ETag: userETag(user) });
      },
    );
}
