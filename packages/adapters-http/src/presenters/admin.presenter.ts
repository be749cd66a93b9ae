import { ADMIN_ROLES, type Admin, type AdminInvitation } from '@uas/domain';
import * as v from 'valibot';
import { timestamp } from './timestamp';
import { isoTimestamp } from './user.presenter';

export const ADMINS_PATH = '/v1/admin/admins';
export const ADMIN_INVITATIONS_PATH = `${ADMINS_PATH}/invitations`;

const described = <T extends v.GenericSchema>(schema: T, description: string) =>
  v.pipe(schema, v.description(description));
const role = () => described(v.picklist(ADMIN_ROLES), 'What the administrator may do (see the role matrix).');

/** An administrator as the API shows it: never the password hash or the key file's stamp. */
export const adminResourceSchema = v.object({
  type: v.literal('admins'),
  id: v.pipe(v.string(), v.uuid()),
  attributes: v.object({
    email: v.pipe(v.string(), v.email()),
    name: v.string(),
    role: role(),
    created: isoTimestamp(),
    updated: isoTimestamp(),
  }),
});

export const adminDocumentSchema = v.object({ data: adminResourceSchema });
export const adminListDocumentSchema = v.object({
  data: v.array(adminResourceSchema),
  meta: v.object({ total: described(v.pipe(v.number(), v.integer()), 'How many administrators there are.') }),
});

/** A pending invitation of an administrator: never its link or token. */
export const adminInvitationResourceSchema = v.object({
  type: v.literal('admin-invitations'),
  id: v.pipe(v.string(), v.uuid()),
  attributes: v.object({
    email: v.pipe(v.string(), v.email()),
    name: v.string(),
    role: role(),
    invited_by: described(v.nullable(v.pipe(v.string(), v.uuid())), 'The owner who invited, or null (the CLI).'),
    created: isoTimestamp(),
    expires: described(isoTimestamp(), 'When the link stops working (48 hours after it was made).'),
  }),
});

export const adminInvitationDocumentSchema = v.object({ data: adminInvitationResourceSchema });
export const adminInvitationListDocumentSchema = v.object({
  data: v.array(adminInvitationResourceSchema),
  meta: v.object({ total: described(v.pipe(v.number(), v.integer()), 'How many invitations are pending.') }),
});

function adminResource(admin: Admin): v.InferOutput<typeof adminResourceSchema> {
  return {
    type: 'admins',
    id: admin.id,
    attributes: {
      email: admin.email,
      name: admin.name,
      role: admin.role,
      created: timestamp(admin.created),
      updated: timestamp(admin.updated),
    },
  };
}

function adminInvitationResource(invitation: AdminInvitation): v.InferOutput<typeof adminInvitationResourceSchema> {
  return {
    type: 'admin-invitations',
    id: invitation.id,
    attributes: {
      email: invitation.email,
      name: invitation.name,
      role: invitation.role,
      invited_by: invitation.invitedBy,
      created: timestamp(invitation.created),
      expires: timestamp(invitation.expires),
    },
  };
}

export const adminDocument = (admin: Admin): v.InferOutput<typeof adminDocumentSchema> => ({
  data: adminResource(admin),
});

export const adminListDocument = (admins: readonly Admin[]): v.InferOutput<typeof adminListDocumentSchema> => ({
  data: admins.map(adminResource),
  meta: { total: admins.length },
});

export const adminInvitationDocument = (
  invitation: AdminInvitation,
): v.InferOutput<typeof adminInvitationDocumentSchema> => ({ data: adminInvitationResource(invitation) });

export const adminInvitationListDocument = (
  invitations: readonly AdminInvitation[],
): v.InferOutput<typeof adminInvitationListDocumentSchema> => ({
  data: invitations.map(adminInvitationResource),
  meta: { total: invitations.length },
});
