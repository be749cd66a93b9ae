import { SECOND_STEP_KINDS, type IssuedChallenge, type PasskeyOptions } from '@uas/domain';
import * as v from 'valibot';
import { jsonObject } from '../schemas/json-api.schemas';
import { timestamp } from './timestamp';

const expires = v.pipe(v.string(), v.isoTimestamp(), v.description('When it can no longer be answered.'));

/** A login's answer for an account with a second factor: no token, the challenge of the second step. */
export const mfaChallengeDocumentSchema = v.object({
  data: v.object({
    type: v.literal('mfa_challenges'),
    id: v.pipe(v.string(), v.description('The challenge handle (256 random bits) to send to the second step.')),
    attributes: v.object({
      kinds: v.pipe(v.array(v.picklist(SECOND_STEP_KINDS)), v.description('What may answer it.')),
      expires,
      webauthn: v.optional(
        v.pipe(
          jsonObject(),
          v.description("PublicKeyCredentialRequestOptionsJSON over the account's passkeys, when one may answer."),
        ),
      ),
    }),
  }),
});

export function mfaChallengeDocument(challenge: IssuedChallenge): v.InferOutput<typeof mfaChallengeDocumentSchema> {
  const { handle, kinds, webauthn } = challenge;
  return {
    data: {
      type: 'mfa_challenges',
      id: handle,
      attributes: { kinds: [...kinds], expires: timestamp(challenge.expires), ...(webauthn ? { webauthn } : {}) },
    },
  };
}

/** The options of a passwordless passkey sign-in: its id is the WebAuthn challenge the assertion signs. */
export const passkeyChallengeDocumentSchema = v.object({
  data: v.object({
    type: v.literal('passkey_challenges'),
    id: v.pipe(v.string(), v.description('The WebAuthn challenge (base64url); single use.')),
    attributes: v.object({
      webauthn: v.pipe(
        jsonObject(),
        v.description('PublicKeyCredentialRequestOptionsJSON for a discoverable passkey (no allowCredentials).'),
      ),
      expires,
    }),
  }),
});

export function passkeyChallengeDocument(
  options: PasskeyOptions,
): v.InferOutput<typeof passkeyChallengeDocumentSchema> {
  return {
    data: {
      type: 'passkey_challenges',
      id: options.challenge,
      attributes: { webauthn: options.options, expires: timestamp(options.expires) },
    },
  };
}
