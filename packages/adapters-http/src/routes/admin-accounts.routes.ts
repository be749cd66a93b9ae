import type { AdminAccess, AdminAccounts } from '@uas/domain';
import { Hono } from 'hono';
import type { AdminEnv, AppEnv } from '../app-env';
import { adminAccess } from '../middleware/admin-access';
import { caller, requestContext } from '../network/request-context';
import { adminExample, adminInvitationExample } from '../openapi/examples';
import { describeRoute } from '../openapi/route-description';
import {
  ADMIN_INVITATIONS_PATH,
  ADMINS_PATH,
  adminDocument,
  adminDocumentSchema,
  adminInvitationDocument,
  adminInvitationDocumentSchema,
  adminInvitationListDocument,
  adminInvitationListDocumentSchema,
  adminListDocument,
  adminListDocumentSchema,
} from '../presenters/admin.presenter';
import { inviteAdminDocument, parseInviteAdmin, parseUpdateAdmin, updateAdminDocument } from '../schemas/admin.schemas';
import { acceptInvitationSchema, parseAcceptInvitation } from '../schemas/invitation.schemas';
import { jsonBody } from '../schemas/validation';
import { requireUuidParam } from './uuid-param';

const TAGS = ['Administrators'];
const admin = (description: string) => ({ description, schema: adminDocumentSchema, example: adminExample }) as const;

/**
 * The signed-in admin (`/v1/admin/me`), and the owners' management of administrators: invitations
 * by email, roles, removal. Accepting an invitation takes no admin token, only the link's.
 */
export function adminAccountsRoutes({
  adminAccounts,
  adminAccess: access,
}: {
  adminAccounts: AdminAccounts;
  adminAccess: AdminAccess;
}) {
  const owners = adminAccess(access, 'admins.manage');
  const knownAdmin = requireUuidParam('admin');
  const accept = new Hono<AppEnv>().post(
    `${ADMINS_PATH}/accept`,
    describeRoute({
      operationId: 'acceptAdminInvitation',
      summary: "Accept an administrator's invitation: set the password with the mailed token",
      description:
        "No admin token: the link's token is the proof. The password is checked first: a refused one (422) leaves the link usable. Then the invitation is used once and the administrator made, with the invited address and role. A wrong, used, withdrawn or expired invitation's token → 400 `invalid_action_token`, one answer for all; an address an administrator took meanwhile → 409 `email_taken`.",
      tags: TAGS,
      body: {
        schema: acceptInvitationSchema,
        example: { token: 'the-token-from-the-link', password: 'correct horse battery' },
      },
      responses: { 201: admin('The new administrator; they log in at /v1/admin/login.') },
      errors: ['invalid_action_token', 'email_taken'],
    }),
    jsonBody(parseAcceptInvitation),
    async (c) => {
      const { token, password } = c.req.valid('json');
      return c.json(adminDocument(await adminAccounts.accept(token, password, requestContext(c))), 201);
    },
  );
  const managed = new Hono<AdminEnv>()
    .get(
      '/v1/admin/me',
      describeRoute({
        operationId: 'adminMe',
        summary: 'The signed-in administrator, with their role',
        description: 'The role is read at this request: a change applies at the next one.',
        tags: TAGS,
        responses: { 200: admin('The administrator the access token speaks for.') },
      }),
      adminAccess(access, 'self'),
      async (c) => c.json(adminDocument(await adminAccounts.find(c.get('identity').subjectId)), 200),
    )
    .get(
      ADMINS_PATH,
      describeRoute({
        operationId: 'listAdmins',
        summary: 'List the administrators, earliest first',
        description:
          "The first is the key file's administrator (ADMIN_KEY_PATH). Pending invitations are listed apart, at /v1/admin/admins/invitations.",
        tags: TAGS,
        responses: { 200: { description: 'Every administrator.', schema: adminListDocumentSchema } },
      }),
      owners,
      async (c) => c.json(adminListDocument(await adminAccounts.list()), 200),
    )
    .post(
      ADMINS_PATH,
      describeRoute({
        operationId: 'inviteAdmin',
        summary: 'Invite an administrator by email, with a role',
        description:
          "Mails a link (kind `admin_invitation`) to the `/account/admin-invitation` page, where the invitee sets a password (or POST /v1/admin/admins/accept). The link works once, for the invited address, for 48 hours; inviting an address again withdraws its earlier link. `name` defaults to the address. An address that is an administrator's → 409 `email_taken`.",
        tags: TAGS,
        body: {
          schema: inviteAdminDocument,
          example: { data: { type: 'admins', attributes: { email: 'ada@example.com', name: 'Ada', role: 'support' } } },
        },
        responses: {
          201: {
            description: 'The invitation, pending.',
            schema: adminInvitationDocumentSchema,
            example: adminInvitationExample,
          },
        },
        errors: ['resource_conflict', 'email_taken'],
      }),
      owners,
      jsonBody(parseInviteAdmin),
      async (c) => c.json(adminInvitationDocument(await adminAccounts.invite(c.req.valid('json'), caller(c))), 201),
    )
    .get(
      ADMIN_INVITATIONS_PATH,
      describeRoute({
        operationId: 'listAdminInvitations',
        summary: "List administrators' pending invitations, oldest first",
        description: 'Pending: neither accepted, withdrawn nor expired.',
        tags: TAGS,
        responses: { 200: { description: 'Every pending invitation.', schema: adminInvitationListDocumentSchema } },
      }),
      owners,
      async (c) => c.json(adminInvitationListDocument(await adminAccounts.pendingInvitations()), 200),
    )
    .delete(
      `${ADMIN_INVITATIONS_PATH}/:id`,
      describeRoute({
        operationId: 'withdrawAdminInvitation',
        summary: "Withdraw an administrator's pending invitation",
        description:
          'Its link stops working; recorded as `admin.invitation_withdrawn`. An accepted, withdrawn, expired or unknown invitation → 404.',
        tags: TAGS,
        responses: { 204: { description: 'Withdrawn.' } },
      }),
      owners,
      requireUuidParam('invitation'),
      async (c) => {
        await adminAccounts.withdraw(c.req.param('id'), caller(c));
        return c.body(null, 204);
      },
    )
    .get(
      `${ADMINS_PATH}/:id`,
      describeRoute({
        operationId: 'getAdmin',
        summary: 'Get an administrator',
        tags: TAGS,
        responses: { 200: admin('The administrator.') },
      }),
      owners,
      knownAdmin,
      async (c) => c.json(adminDocument(await adminAccounts.find(c.req.param('id'))), 200),
    )
    .patch(
      `${ADMINS_PATH}/:id`,
      describeRoute({
        operationId: 'updateAdmin',
        summary: "Change an administrator's role or name",
        description:
          "A role change applies at the administrator's next request. Taking `owner` from the last owner → 409 `last_owner`, also when two owners demote each other at once. The key file's administrator may be demoted while another owner remains; it is an owner again at the service's next start.",
        tags: TAGS,
        body: {
          schema: updateAdminDocument,
          example: { data: { type: 'admins', attributes: { role: 'auditor' } } },
        },
        responses: { 200: admin('The administrator as changed.') },
        errors: ['resource_conflict', 'last_owner'],
      }),
      owners,
      knownAdmin,
      jsonBody((body, c) => parseUpdateAdmin(body, c.req.param('id') ?? '')),
      async (c) =>
        c.json(adminDocument(await adminAccounts.change(c.req.param('id'), c.req.valid('json'), caller(c))), 200),
    )
    .delete(
      `${ADMINS_PATH}/:id`,
      describeRoute({
        operationId: 'removeAdmin',
        summary: 'Remove an administrator',
        description:
          "Their sessions end in the same transaction, and their second factors go. An owner may remove themselves while another owner remains; the last owner → 409 `last_owner`. The key file's administrator → 403 `forbidden` (edit the key file instead).",
        tags: TAGS,
        responses: { 204: { description: 'Removed.' } },
        errors: ['last_owner'],
      }),
      owners,
      knownAdmin,
      async (c) => {
        await adminAccounts.remove(c.req.param('id'), caller(c));
        return c.body(null, 204);
      },
    );
  return new Hono<AppEnv>().route('/', accept).route('/', managed);
}
