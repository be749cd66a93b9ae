import type { InvitationPage, ListedInvitation } from '@uas/domain';
import * as v from 'valibot';
import type { PageQuery } from '../schemas/list-query.schemas';
import { pageLinks, pageLinksSchema } from './page-links';
import { timestamp } from './timestamp';
import { isoTimestamp } from './user.presenter';

export const INVITATIONS_PATH = '/v1/admin/invitations';

const described = <T extends v.GenericSchema>(schema: T, description: string) =>
  v.pipe(schema, v.description(description));

/** A pending invitation as the API shows it: never its link or token. */
export const invitationResourceSchema = v.object({
  type: v.literal('invitations'),
  id: v.pipe(v.string(), v.uuid()),
  attributes: v.object({
    email: v.pipe(v.string(), v.email()),
    name: v.string(),
    user_id: described(v.pipe(v.string(), v.uuid()), 'The invited user, who cannot log in until accepting.'),
    invited_by: described(v.nullable(v.pipe(v.string(), v.uuid())), 'The admin who invited, or null.'),
    created: isoTimestamp(),
    sent: described(isoTimestamp(), 'When the last message went out (at creation, then at every resend).'),
    expires: described(isoTimestamp(), 'When the link of the last message stops working.'),
  }),
});

export const invitationDocumentSchema = v.object({ data: invitationResourceSchema });

export const invitationListDocumentSchema = v.object({
  data: v.array(invitationResourceSchema),
  links: pageLinksSchema,
  meta: v.object({ total: described(v.pipe(v.number(), v.integer()), 'How many invitations are pending.') }),
});

function invitationResource(invitation: ListedInvitation): v.InferOutput<typeof invitationResourceSchema> {
  return {
    type: 'invitations',
    id: invitation.id,
    attributes: {
      email: invitation.email,
      name: invitation.name,
      user_id: invitation.userId,
      invited_by: invitation.invitedBy,
      created: timestamp(invitation.created),
      sent: timestamp(invitation.sent),
      expires: timestamp(invitation.expires),
    },
  };
}

export const invitationDocument = (invitation: ListedInvitation): v.InferOutput<typeof invitationDocumentSchema> => ({
  data: invitationResource(invitation),
});

export function invitationListDocument(
  page: InvitationPage,
  query: PageQuery,
): v.InferOutput<typeof invitationListDocumentSchema> {
  return {
    data: page.invitations.map(invitationResource),
    links: pageLinks(INVITATIONS_PATH, query, page.total),
    meta: { total: page.total },
  };
}
