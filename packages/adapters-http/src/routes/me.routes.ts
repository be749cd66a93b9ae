import type { AuthService, SelfService } from '@uas/domain';
import { Hono } from 'hono';
import type { AppEnv, AuthenticatedEnv } from '../app-env';
import { bearerAuth } from '../middleware/bearer-auth';
import { ifMatchVersions, userETag } from '../presenters/user-etag';
import { userDocument } from '../presenters/user.presenter';
import { assertResourceIdentity } from '../schemas/json-api.schemas';
import { parseSelfUpdate } from '../schemas/user.schemas';
import { jsonBody } from '../schemas/validation';

/** A user's own account, with a user access token. */
export function meRoutes({ self, userAuth }: { self: SelfService; userAuth: AuthService }) {
  const authenticated = bearerAuth(userAuth);
  return new Hono<AppEnv>()
    .get('/v1/users/me', authenticated, async (c) => {
      const user = await self.me(c.get('identity'));
      return c.json(userDocument(user), 200, { ETag: userETag(user) });
    })
    .patch(
      '/v1/users/me',
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
        );
        return c.json(userDocument(user), 200, { ETag: userETag(user) });
      },
    );
}
