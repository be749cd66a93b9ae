import { ADMIN_ROLES, type AdminPatch, type NewAdminInvitation } from '@uas/domain';
import * as v from 'valibot';
import {
  assertResourceIdentity,
  closedObject,
  identifiedResourceDocument,
  resourceDocument,
  text,
} from './json-api.schemas';
import { email, name } from './user.schemas';
import { parseWith } from './validation';

const ADMIN_TYPE = 'admins';
/** Any string passes the shape check; the domain refuses one that is not a role, naming the roles. */
const role = v.pipe(text(), v.metadata({ enum: [...ADMIN_ROLES] }), v.description('One of the roles.'));

/** POST /v1/admin/admins: whom to invite, and with which role. */
export const inviteAdminDocument = resourceDocument(
  closedObject({ email, name: v.optional(name), role }, 'attribute'),
  ADMIN_TYPE,
);

export function parseInviteAdmin(body: unknown): NewAdminInvitation {
  assertResourceIdentity(body, undefined, ADMIN_TYPE);
  return parseWith(inviteAdminDocument, body).data.attributes as NewAdminInvitation;
}

/** PATCH /v1/admin/admins/{id}: a new role, a new name, or both. */
export const updateAdminDocument = identifiedResourceDocument(
  closedObject({ role: v.optional(role), name: v.optional(name) }, 'attribute'),
  ADMIN_TYPE,
);

export function parseUpdateAdmin(body: unknown, pathId: string): AdminPatch {
  assertResourceIdentity(body, pathId, ADMIN_TYPE);
  return parseWith(updateAdminDocument, body).data.attributes as AdminPatch;
}
