import type { JsonObject } from '../shared/json.ts';
import { token } from '../shared/token.ts';
import type { PasskeyCredential } from './factor.ts';

/** Options for the browser, and the challenge in them that the answer must sign. */
export interface CeremonyOptions {
  readonly options: JsonObject;
  /** base64url; stored server-side and used once. */
  readonly challenge: string;
}

/** An assertion that verified: the counter it carried and the method it proves. */
export interface VerifiedAssertion {
  readonly counter: number;
  readonly userVerified: boolean;
}

/**
 * The WebAuthn ceremonies (relying party WEBAUTHN_RP_ID, WEBAUTHN_ORIGINS). The server's adapter
 * is @simplewebauthn/server; every verification checks the challenge, origin, RP id and
 * signature, and answers null for any refusal rather than throwing.
 */
export interface PasskeyCeremonies {
  registrationOptions(input: {
    userId: string;
    userName: string;
    displayName: string;
    exclude: readonly PasskeyCredential[];
  }): Promise<CeremonyOptions>;
  verifyRegistration(response: JsonObject, expectedChallenge: string): Promise<PasskeyCredential | null>;
  /** Empty `allow`: a discoverable-credential (passwordless) sign-in. */
  authenticationOptions(allow: readonly PasskeyCredential[]): Promise<CeremonyOptions>;
  /** The credential id an assertion names, or null when the response is not one. */
  credentialIdOf(response: JsonObject): string | null;
  verifyAuthentication(
    response: JsonObject,
    expectedChallenge: string,
    credential: PasskeyCredential,
  ): Promise<VerifiedAssertion | null>;
}
export const PasskeyCeremonies = token<PasskeyCeremonies>('PasskeyCeremonies');
