import { FACTOR_KINDS } from '@uas/domain';
import * as v from 'valibot';
import { closedObject, jsonObject } from './json-api.schemas';

const credential = v.pipe(
  jsonObject(),
  v.description('A WebAuthn response as @simplewebauthn/browser returns it (plain JSON).'),
);
const code = v.pipe(v.string(), v.maxLength(64), v.description('A TOTP code, or for a step-up a recovery code.'));
/** The members of a second-factor proof sent with a request: a code or a passkey response. */
export const proofMembers = { code: v.optional(code), credential: v.optional(credential) };
/** A code or a passkey response, in a JSON object (an array or any other member is refused). */
const codeOrCredential = () => closedObject(proofMembers, 'member');

/**
 * POST …/factors: the kind of factor to enrol, and a step-up proof (`code` or `credential`, as
 * for a removal) when the account has an active factor already.
 */
export const enrolDocument = v.object({
  data: v.object({
    type: v.literal('factors'),
    attributes: v.object({ kind: v.picklist(FACTOR_KINDS, `kind must be one of ${FACTOR_KINDS.join(', ')}`) }),
  }),
  code: v.optional(code),
  credential: v.optional(credential),
});

/** POST …/factors/{id}/verify: a TOTP code, or the passkey's RegistrationResponseJSON. */
export const verifyFactorDocument = codeOrCredential();

/**
 * A step-up given with the request (DELETE …/factors/{id}, POST …/recovery-codes): a code, or an
 * AuthenticationResponseJSON over a challenge of the passkey options. Both optional: a session
 * whose login's second step is recent needs neither.
 */
export const stepUpDocument = codeOrCredential();
