import { isJsonObject, PASSWORD_MAX_BYTES, PASSWORD_MIN_BYTES, type NewInvitation } from '@uas/domain';
import * as v from 'valibot';
import { assertResourceIdentity, closedObject, openObject, resourceDocument, text } from './json-api.schemas';
import { app, email, metadata, name } from './user.schemas';
import { parseWith } from './validation';

const INVITATION_TYPE = 'invitations';

/** POST /v1/admin/invitations: a user's attributes without a password, which the invitee sets. */
export const createInvitationDocument = resourceDocument(
  closedObject({ email, name: v.optional(name), metadata: v.optional(metadata), app: v.optional(app) }, 'attribute'),
  INVITATION_TYPE,
);

export function parseCreateInvitation(body: unknown): NewInvitation {
  assertResourceIdentity(body, undefined, INVITATION_TYPE);
  return parseWith(createInvitationDocument, body).data.attributes;
}

/**
 * POST /v1/invitations/accept, as the accept-invitation page and an app post it. The schema
 * describes the body; the domain reads it: the password is checked before the token (422 leaves
 * the link usable), and anything that is not a live token, a missing one included, is the one
 * 400 `invalid_token`.
 */
export const acceptInvitationSchema = openObject({
  token: v.pipe(text(), v.description('The `token` query parameter of the mailed link.')),
  password: v.pipe(text(), v.description(`${PASSWORD_MIN_BYTES} to ${PASSWORD_MAX_BYTES} bytes of UTF-8.`)),
});

export function parseAcceptInvitation(body: unknown): { token: unknown; password: unknown } {
  const fields = isJsonObject(body) ? body : {};
  return { token: fields.token, password: fields.password };
}
