import { FACTOR_KINDS } from '@uas/domain';
import * as v from 'valibot';

/** POST …/factors: the kind of factor to enrol. */
export const enrolDocument = v.object({
  data: v.object({
    type: v.literal('factors'),
    attributes: v.object({ kind: v.picklist(FACTOR_KINDS, `kind must be one of ${FACTOR_KINDS.join(', ')}`) }),
  }),
});

const credential = v.pipe(
  v.record(v.string(), v.unknown()),
  v.description('A WebAuthn response as @simplewebauthn/browser returns it (plain JSON).'),
);
const code = v.pipe(v.string(), v.maxLength(64), v.description('A TOTP code, or for a step-up a recovery code.'));

/** POST …/factors/{id}/verify: a TOTP code, or the passkey's RegistrationResponseJSON. */
export const verifyFactorDocument = v.object({ code: v.optional(code), credential: v.optional(credential) });

/**
 * A step-up given with the request (DELETE …/factors/{id}, POST …/recovery-codes): a code, or an
 * AuthenticationResponseJSON over a challenge of the passkey options. Both optional: a session
 * whose login's second step is recent needs neither.
 */
export const stepUpDocument = v.object({ code: v.optional(code), credential: v.optional(credential) });
