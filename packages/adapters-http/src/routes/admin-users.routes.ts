import type { AuthService, UserService } from '@uas/domain';
import { Hono } from 'hono';
import type { AppEnv } from '../app-env';
import { bearerAuth } from '../middleware/bearer-auth';
import { userListDocument } from '../presenters/user-list.presenter';
import { ifMatchVersions, userETag } from '../presenters/user-etag';
import { userDocument, userLocation } from '../presenters/user.presenter';
import { parseListQuery, type ListQueryInput } from '../schemas/list-query.schemas';
import { decodeQueryString } from '../schemas/query-string';
import { parseCreateUser, parseUpdateUser } from '../schemas/user.schemas';
import { jsonBody, queryParameters } from '../schemas/validation';
import { requireUuidParam } from './uuid-param';

/** User management with an admin access token. */
export function adminUsersRoutes({ users, adminAuth }: { users: UserService; adminAuth: AuthService }) {
  const authenticated = bearerAuth(adminAuth);
  const knownId = requireUuidParam('user');
  return new Hono<AppEnv>()
    .get(
      '/v1/admin/users',
      authenticated,
      queryParameters<ListQueryInput, ReturnType<typeof parseListQuery>>((c) =>
        parseListQuery(decodeQueryString(c.req.url)),
      ),
      async (c) => {
        const query = c.req.valid('query');
        const page = await users.list({ page: query.page, size: query.size, emailContains: query.search });
        return c.json(userListDocument(page, query), 200);
      },
    )
    .post('/v1/admin/users', authenticated, jsonBody(parseCreateUser), async (c) => {
      const user = await users.create(c.req.valid('json'));
      return c.json(userDocument(user), 201, { Location: userLocation(user), ETag: userETag(user) });
    })
    .get('/v1/admin/users/:id', authenticated, knownId, async (c) => {
      const user = await users.get(c.req.param('id'));
      return c.json(userDocument(user), 200, { ETag: userETag(user) });
    })
    .patch(
      '/v1/admin/users/:id',
      authenticated,
      knownId,
      jsonBody((body, c) => parseUpdateUser(body, c.req.param('id') ?? '')),
      async (c) => {
        const ifVersion = ifMatchVersions(c.req.header('If-Match'));
        const user = await users.update(c.req.param('id'), c.req.valid('json'), { ifVersion });
        return c.json(userDocument(user), 200, { ETag: userETag(user) });
      },
    )
    .delete('/v1/admin/users/:id', authenticated, knownId, async (c) => {
      await users.delete(c.req.param('id'), { ifVersion: ifMatchVersions(c.req.header('If-Match')) });
      return c.body(null, 204);
    });
}
