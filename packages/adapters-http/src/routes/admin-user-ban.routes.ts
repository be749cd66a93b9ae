import type { AdminAccess, UserService } from '@uas/domain';
import { Hono } from 'hono';
import type { AppEnv } from '../app-env';
import { adminAccess } from '../middleware/admin-access';
import { caller } from '../network/request-context';
import { adminUserExample } from '../openapi/examples';
import { describeRoute } from '../openapi/route-description';
import { userETag } from '../presenters/user-etag';
import { adminUserDocument, adminUserDocumentSchema } from '../presenters/user.presenter';
import { banBodySchema, parseBan } from '../schemas/user.schemas';
import { jsonBody } from '../schemas/validation';
import { requireUuidParam } from './uuid-param';

const TAGS = ['Admin users'];
const BAN_PATH = '/v1/admin/users/:id/ban';
const user = (description: string) =>
  ({ description, schema: adminUserDocumentSchema, headers: ['ETag'], example: adminUserExample }) as const;

/** An admin bans a user (with a reason, until a time or without end) and lifts the ban. */
export function adminUserBanRoutes(deps: { users: UserService; adminAccess: AdminAccess }) {
  const knownUser = requireUuidParam('user');
  return new Hono<AppEnv>()
    .post(
      BAN_PATH,
      describeRoute({
        operationId: 'banUser',
        summary: 'Ban a user',
        description:
          "Ends every session of the user and voids its single-use links, in the ban's transaction with its audit event (`user.banned`). Until `until` (or for good when null), a login with the right password is refused with 403 `account_banned`, as are the passkey sign-in, the second step and refresh; a wrong password stays 401. A second ban replaces the first.",
        tags: TAGS,
        body: {
          schema: banBodySchema,
          example: { reason: 'Spam reported by three users; a week to cool off.', until: '2026-12-01T00:00:00.000Z' },
        },
        responses: { 200: user('The banned user.') },
      }),
      adminAccess(deps.adminAccess, 'users.ban'),
      knownUser,
      jsonBody(parseBan),
      async (c) => {
        const banned = await deps.users.ban(c.req.param('id'), c.req.valid('json'), caller(c));
        return c.json(adminUserDocument(banned), 200, { ETag: userETag(banned) });
      },
    )
    .delete(
      BAN_PATH,
      describeRoute({
        operationId: 'unbanUser',
        summary: "Lift a user's ban",
        description:
          'The user can log in again at once (`user.unbanned`). A user without a ban is answered as it is, and nothing is recorded.',
        tags: TAGS,
        responses: { 200: user('The user, not banned.') },
      }),
      adminAccess(deps.adminAccess, 'users.ban'),
      knownUser,
      async (c) => {
        const lifted = await deps.users.unban(c.req.param('id'), caller(c));
        return c.json(adminUserDocument(lifted), 200, { ETag: userETag(lifted) });
      },
    );
}
