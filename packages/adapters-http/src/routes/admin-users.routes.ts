import type { AdminAccess, UserService } from '@uas/domain';
import { Hono } from 'hono';
import type { AppEnv } from '../app-env';
import { adminAccess } from '../middleware/admin-access';
import { caller } from '../network/request-context';
import { adminUserExample } from '../openapi/examples';
import { describeRoute, IF_MATCH_HEADER } from '../openapi/route-description';
import { userListDocument, userListDocumentSchema } from '../presenters/user-list.presenter';
import { ifMatchVersions, userETag } from '../presenters/user-etag';
import { adminUserDocument, adminUserDocumentSchema, userLocation } from '../presenters/user.presenter';
import { LIST_QUERY_PARAMETERS, parseListQuery, type ListQueryInput } from '../schemas/list-query.schemas';
import { decodeQueryString } from '../schemas/query-string';
import { createUserDocument, parseCreateUser, parseUpdateUser, updateUserDocument } from '../schemas/user.schemas';
import { jsonBody, queryParameters } from '../schemas/validation';
import { requireUuidParam } from './uuid-param';

const TAGS = ['Admin users'];
const user = (description: string) =>
  ({ description, schema: adminUserDocumentSchema, headers: ['ETag'], example: adminUserExample }) as const;

/** User management with an admin access token. */
export function adminUsersRoutes({ users, adminAccess: access }: { users: UserService; adminAccess: AdminAccess }) {
  const knownId = requireUuidParam('user');
  return new Hono<AppEnv>()
    .get(
      '/v1/admin/users',
      describeRoute({
        operationId: 'listUsers',
        summary: 'List users, oldest first, a page at a time',
        tags: TAGS,
        query: LIST_QUERY_PARAMETERS,
        responses: {
          200: { description: 'One page of users, with links to the others.', schema: userListDocumentSchema },
        },
      }),
      adminAccess(access, 'users.read'),
      queryParameters<ListQueryInput, ReturnType<typeof parseListQuery>>((c) =>
        parseListQuery(decodeQueryString(c.req.url)),
      ),
      async (c) => {
        const query = c.req.valid('query');
        const page = await users.list({ page: query.page, size: query.size, emailContains: query.search });
        return c.json(userListDocument(page, query), 200);
      },
    )
    .post(
      '/v1/admin/users',
      describeRoute({
        operationId: 'createUser',
        summary: 'Create a user',
        description:
          '`email` and `password` are required; `name` defaults to "", `metadata` and `app` to {}, `active` to 1.',
        tags: TAGS,
        body: {
          schema: createUserDocument,
          example: {
            data: { type: 'users', attributes: { email: 'ada@example.com', password: 'correct horse battery' } },
          },
        },
        responses: { 201: { ...user('The created user.'), headers: ['Location', 'ETag'] } },
        errors: ['resource_conflict', 'email_taken'],
      }),
      adminAccess(access, 'users.write'),
      jsonBody(parseCreateUser),
      async (c) => {
        const user = await users.create(c.req.valid('json'), caller(c));
        return c.json(adminUserDocument(user), 201, { Location: userLocation(user), ETag: userETag(user) });
      },
    )
    .get(
      '/v1/admin/users/:id',
      describeRoute({
        operationId: 'getUser',
        summary: 'Read a user',
        tags: TAGS,
        responses: { 200: user('The user.') },
      }),
      adminAccess(access, 'users.read'),
      knownId,
      async (c) => {
        const user = await users.get(c.req.param('id'));
        return c.json(adminUserDocument(user), 200, { ETag: userETag(user) });
      },
    )
    .patch(
      '/v1/admin/users/:id',
      describeRoute({
        operationId: 'updateUser',
        summary: 'Change some attributes of a user',
        description: "An attribute left out keeps its value. A new password or `active: 0` ends the user's sessions.",
        headers: [IF_MATCH_HEADER],
        tags: TAGS,
        body: { schema: updateUserDocument, example: { data: { type: 'users', attributes: { name: 'Ada King' } } } },
        responses: { 200: user('The changed user.') },
        errors: ['resource_conflict', 'email_taken', 'precondition_failed'],
      }),
      adminAccess(access, 'users.write'),
      knownId,
      jsonBody((body, c) => parseUpdateUser(body, c.req.param('id') ?? '')),
      async (c) => {
        const ifVersion = ifMatchVersions(c.req.header('If-Match'));
        const user = await users.update(c.req.param('id'), c.req.valid('json'), { ifVersion, by: caller(c) });
        return c.json(adminUserDocument(user), 200, { ETag: userETag(user) });
      },
    )
    .delete(
      '/v1/admin/users/:id',
      describeRoute({
        operationId: 'deleteUser',
        summary: 'Delete a user',
        description: 'Its sessions end with it.',
        headers: [IF_MATCH_HEADER],
        tags: TAGS,
        responses: { 204: { description: 'Deleted.' } },
        errors: ['precondition_failed'],
      }),
      adminAccess(access, 'users.write'),
      knownId,
      async (c) => {
        await users.delete(c.req.param('id'), { ifVersion: ifMatchVersions(c.req.header('If-Match')), by: caller(c) });
        return c.body(null, 204);
      },
    );
}
