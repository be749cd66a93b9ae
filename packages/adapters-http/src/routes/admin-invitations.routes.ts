import type { AdminAccess, InvitationService } from '@uas/domain';
import { Hono } from 'hono';
import type { AppEnv } from '../app-env';
import { adminAccess } from '../middleware/admin-access';
import { caller } from '../network/request-context';
import { invitationExample } from '../openapi/examples';
import { describeRoute } from '../openapi/route-description';
import {
  INVITATIONS_PATH,
  invitationDocument,
  invitationDocumentSchema,
  invitationListDocument,
  invitationListDocumentSchema,
} from '../presenters/invitation.presenter';
import { createInvitationDocument, parseCreateInvitation } from '../schemas/invitation.schemas';
import { pageParameters, parsePageQuery, type PageQueryInput } from '../schemas/list-query.schemas';
import { decodeQueryString } from '../schemas/query-string';
import { jsonBody, queryParameters } from '../schemas/validation';
import { requireUuidParam } from './uuid-param';

const TAGS = ['Admin invitations'];
const invitation = (description: string) =>
  ({ description, schema: invitationDocumentSchema, example: invitationExample }) as const;

/** Inviting users by mail, with an admin access token. */
export function adminInvitationsRoutes({
  invitations,
  adminAccess: access,
}: {
  invitations: InvitationService;
  adminAccess: AdminAccess;
}) {
  const knownId = requireUuidParam('invitation');
  return new Hono<AppEnv>()
    .get(
      INVITATIONS_PATH,
      describeRoute({
        operationId: 'listInvitations',
        summary: 'List pending invitations, oldest first, a page at a time',
        tags: TAGS,
        query: pageParameters('Invitations'),
        responses: {
          200: {
            description: 'One page of pending invitations, with links to the others.',
            schema: invitationListDocumentSchema,
          },
        },
      }),
      adminAccess(access, 'invitations.read'),
      queryParameters<PageQueryInput, ReturnType<typeof parsePageQuery>>((c) =>
        parsePageQuery(decodeQueryString(c.req.url)),
      ),
      async (c) => {
        const query = c.req.valid('query');
        return c.json(invitationListDocument(await invitations.list(query), query), 200);
      },
    )
    .post(
      INVITATIONS_PATH,
      describeRoute({
        operationId: 'createInvitation',
        summary: 'Invite someone: a user who sets a password through a mailed link',
        description:
          'Makes the user (`name` defaults to "", `metadata` and `app` to {}), unverified and without a password: a login is refused as a wrong password is until the invitee accepts (POST /v1/invitations/accept). The message with the link is queued in the same transaction; the link lasts INVITATION_TOKEN_TTL_SECONDS. An address that has an account → 409 `email_taken`.',
        tags: TAGS,
        body: {
          schema: createInvitationDocument,
          example: { data: { type: 'invitations', attributes: { email: 'ada@example.com', name: 'Ada Lovelace' } } },
        },
        responses: { 201: invitation('The invitation, pending.') },
        errors: ['resource_conflict', 'email_taken'],
      }),
      adminAccess(access, 'invitations.write'),
      jsonBody(parseCreateInvitation),
      async (c) => c.json(invitationDocument(await invitations.invite(c.req.valid('json'), caller(c))), 201),
    )
    .delete(
      `${INVITATIONS_PATH}/:id`,
      describeRoute({
        operationId: 'revokeInvitation',
        summary: 'Revoke a pending invitation',
        description:
          'The invitation goes, with its user (unless an admin gave it a password meanwhile); the mailed link stops working. An accepted or unknown invitation → 404.',
        tags: TAGS,
        responses: { 204: { description: 'Revoked.' } },
      }),
      adminAccess(access, 'invitations.write'),
      knownId,
      async (c) => {
        await invitations.revoke(c.req.param('id'), caller(c));
        return c.body(null, 204);
      },
    )
    .post(
      `${INVITATIONS_PATH}/:id/resend`,
      describeRoute({
        operationId: 'resendInvitation',
        summary: 'Mail a pending invitation again, with a new link',
        description: 'The link sent before stops working; the new one lasts INVITATION_TOKEN_TTL_SECONDS from now.',
        tags: TAGS,
        responses: { 200: invitation('The invitation, with its new `sent` and `expires`.') },
      }),
      adminAccess(access, 'invitations.write'),
      knownId,
      async (c) => c.json(invitationDocument(await invitations.resend(c.req.param('id'), caller(c))), 200),
    );
}
