import { ValidationError, type SecondStepAnswer } from '@uas/domain';
import * as v from 'valibot';
import { closedObject, jsonObject, text } from './json-api.schemas';
import { parseWith } from './validation';

const credential = () =>
  v.pipe(
    jsonObject(),
    v.description('The passkey assertion: `AuthenticationResponseJSON` as `@simplewebauthn/browser` returns it.'),
  );

/** `POST /v1/login/mfa`: the challenge's id and one answer, a code (TOTP or recovery) or a passkey assertion. */
export const secondStepBodySchema = closedObject(
  {
    challenge: v.pipe(text(), v.description('The `id` of the `mfa_challenges` resource the login answered.')),
    code: v.optional(v.pipe(text(), v.description('A TOTP code (6 digits) or one of the recovery codes.'))),
    credential: v.optional(credential()),
  },
  'member',
);

/** `POST /v1/login/passkey`: a discoverable passkey's assertion over a challenge of the passkey options. */
export const passkeyBodySchema = closedObject({ credential: credential() }, 'member');

/** The challenge handle and the answer of a second step; 422 unless exactly one of `code` and `credential` is given. */
export function parseSecondStep(body: unknown): { handle: string; answer: SecondStepAnswer } {
  const { challenge, code, credential: assertion } = parseWith(secondStepBodySchema, body);
  if ((code === undefined) === (assertion === undefined)) {
    throw new ValidationError([{ source: { pointer: '' }, detail: 'give either a code or a credential' }]);
  }
  return { handle: challenge, answer: code === undefined ? { credential: assertion! } : { code } };
}

export const parsePasskeyBody = (body: unknown) => parseWith(passkeyBodySchema, body).credential;
