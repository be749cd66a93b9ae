import { adminOnlySignupAttributes, isJsonObject, type SignupRequest } from '@uas/domain';
import * as v from 'valibot';
import { assertResourceIdentity, closedObject, resourceDocument } from './json-api.schemas';
import { userAttributes } from './user.schemas';
import { parseWith } from './validation';

const { name, email, password, metadata } = userAttributes;

/** POST /v1/signup: as an admin's create, without what only an administrator sets. */
export const signupDocument = resourceDocument(
  closedObject({ name: v.optional(name), email, password, metadata: v.optional(metadata) }, 'attribute'),
);

/**
 * The attributes of a sign-up. Admin-only attributes (`app`, `active`, `email_verified`) are
 * handed to the domain as they are and alone: SignupService refuses them with 403, and that
 * refusal must win over any other problem in the request.
 */
export function parseSignup(body: unknown): SignupRequest & Record<string, unknown> {
  assertResourceIdentity(body);
  const data = isJsonObject(body) ? body.data : undefined;
  const attributes = isJsonObject(data) && isJsonObject(data.attributes) ? data.attributes : undefined;
  const adminOnly = attributes ? adminOnlySignupAttributes(attributes) : [];
  if (attributes && adminOnly.length > 0) {
    return {
      email: '',
      password: '',
      ...Object.fromEntries(adminOnly.map((attribute) => [attribute, attributes[attribute]])),
    };
  }
  return parseWith(signupDocument, body).data.attributes;
}
