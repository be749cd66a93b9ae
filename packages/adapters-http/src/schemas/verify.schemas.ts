import { closedObject, text } from './json-api.schemas';
import { parseWith } from './validation';

/** POST /v1/verify: the token of a mailed link, as the `/account/` page posts it. */
export const verifyBodySchema = closedObject({ token: text() }, 'member');

export const parseVerifyBody = (body: unknown) => parseWith(verifyBodySchema, body).token;
