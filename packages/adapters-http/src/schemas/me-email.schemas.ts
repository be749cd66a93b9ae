import * as v from 'valibot';
import { closedObject, text } from './json-api.schemas';
import { userAttributes } from './user.schemas';
import { parseWith } from './validation';

/** POST /v1/users/me/email: the new address, and the proof that the caller knows the account. */
export const emailChangeBodySchema = closedObject(
  {
    email: userAttributes.email,
    current_password: v.pipe(text(), v.description('The account’s password now, as for a new password.')),
  },
  'member',
);

export const parseEmailChangeBody = (body: unknown) => parseWith(emailChangeBodySchema, body);
