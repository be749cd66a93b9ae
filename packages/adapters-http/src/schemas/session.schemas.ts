import * as v from 'valibot';
import { assertResourceIdentity, closedObject, openObject, resourceDocument, text } from './json-api.schemas';
import { parseWith } from './validation';

/** POST /v1/admin/login and /v1/login. The password is only compared, never validated here. */
export const loginDocument = resourceDocument(closedObject({ email: text(), password: text() }, 'attribute'));

/**
 * `{ "refreshToken": "<jwt>" }` on refresh and revoke. Optional on the wire because admin routes
 * may take the token from the session cookie instead; the route decides when it is missing.
 */
export const refreshTokenBodySchema = openObject({ refreshToken: v.optional(text()) });

/** Login credentials from a login document; 409 for another `data.type`, 422 for a bad shape. */
export function parseLogin(body: unknown) {
  assertResourceIdentity(body);
  return parseWith(loginDocument, body).data.attributes;
}

export const parseRefreshTokenBody = (body: unknown) => parseWith(refreshTokenBodySchema, body).refreshToken;
