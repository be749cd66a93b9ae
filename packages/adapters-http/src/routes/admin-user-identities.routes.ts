import type { AdminAccess, UserIdentities } from '@uas/domain';
import { Hono } from 'hono';
import type { AdminEnv } from '../app-env';
import { adminAccess } from '../middleware/admin-access';
import { caller } from '../network/request-context';
import { identitiesExample } from '../openapi/examples';
import { describeRoute } from '../openapi/route-description';
import { identityListDocument, identityListDocumentSchema } from '../presenters/identity.presenter';
import { requireUuidParam } from './uuid-param';

const TAGS = ['Admin users'];

/** A user's accounts at identity providers, as an admin sees and unlinks them. */
export function adminUserIdentitiesRoutes({
  userIdentities,
  adminAccess: access,
}: {
  userIdentities: UserIdentities;
  adminAccess: AdminAccess;
}) {
  const knownUser = requireUuidParam('user');
  return new Hono<AdminEnv>()
    .get(
      '/v1/admin/users/:id/identities',
      describeRoute({
        operationId: 'listUserIdentities',
        summary: "List a user's identities at identity providers, oldest first",
        tags: TAGS,
        responses: {
          200: {
            description: "The user's identities.",
            schema: identityListDocumentSchema,
            example: identitiesExample,
          },
        },
      }),
      adminAccess(access, 'users.read'),
      knownUser,
      async (c) => c.json(identityListDocument(await userIdentities.list(c.req.param('id'))), 200),
    )
    .delete(
      '/v1/admin/users/:id/identities/:identityId',
      describeRoute({
        operationId: 'unlinkUserIdentity',
        summary: "Unlink one of a user's identities",
        description:
          "The user no longer signs in with that account at the provider; audited (`user.identity_unlinked`). Never the user's last way in (no usable password, no passkey, no other identity) → 409 `last_sign_in_method`. Not an identity of that user → 404.",
        tags: TAGS,
        responses: { 204: { description: 'Unlinked.' } },
        errors: ['last_sign_in_method'],
      }),
      adminAccess(access, 'users.write'),
      knownUser,
      requireUuidParam('identity', 'identityId'),
      async (c) => {
        await userIdentities.unlink(c.req.param('id'), c.req.param('identityId'), caller(c));
        return c.body(null, 204);
      },
    );
}
