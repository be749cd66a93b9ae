import {
  generateAuthenticationOptions,
  generateRegistrationOptions,
  verifyAuthenticationResponse,
  verifyRegistrationResponse,
  type AuthenticationResponseJSON,
  type RegistrationResponseJSON,
} from '@simplewebauthn/server';
import type { CeremonyOptions, JsonObject, PasskeyCeremonies, PasskeyCredential, VerifiedAssertion } from '@uas/domain';

export interface RelyingParty {
  rpId: string;
  rpName: string;
  /** Every origin whose pages may create and use passkeys. */
  origins: readonly string[];
}

/** How long the browser asks the user before giving up: the challenge itself lives longer. */
const CEREMONY_TIMEOUT_MS = 120_000;
const USER_VERIFICATION = 'preferred';

/**
 * The WebAuthn ceremonies with @simplewebauthn/server, which checks the challenge, origin, RP id
 * hash, flags and signature of every answer. Attestation `none`: we trust no vendor list, only
 * the key the passkey shows. User verification is preferred, not required, so security keys
 * without a PIN work as a second factor; the assertion tells whether the user was verified.
 *
 * The signature counter is not compared here: the library would refuse a counter that did not
 * grow, while the caller decides (it logs and audits a regression, and never refuses a counter of
 * 0, which synced passkeys always send). So the library is given a stored counter of 0.
 */
export class SimpleWebAuthnCeremonies implements PasskeyCeremonies {
  constructor(private readonly party: RelyingParty) {}

  async registrationOptions(input: {
    userId: string;
    userName: string;
    displayName: string;
    exclude: readonly PasskeyCredential[];
  }): Promise<CeremonyOptions> {
    const options = await generateRegistrationOptions({
      rpName: this.party.rpName,
      rpID: this.party.rpId,
      // The user handle a discoverable passkey gives back when it signs in: the account's id.
      userID: new TextEncoder().encode(input.userId),
      userName: input.userName,
      userDisplayName: input.displayName,
      timeout: CEREMONY_TIMEOUT_MS,
      attestationType: 'none',
      excludeCredentials: input.exclude.map((credential) => ({
        id: credential.id,
        transports: [...credential.transports],
      })),
      authenticatorSelection: { residentKey: 'preferred', userVerification: USER_VERIFICATION },
    });
    return { options: toJson(options), challenge: options.challenge };
  }

  async verifyRegistration(response: JsonObject, expectedChallenge: string): Promise<PasskeyCredential | null> {
    try {
      const result = await verifyRegistrationResponse({
        response: response as unknown as RegistrationResponseJSON,
        expectedChallenge,
        expectedOrigin: [...this.party.origins],
        expectedRPID: this.party.rpId,
        requireUserVerification: false,
      });
      if (!result.verified) return null;
      const { credential, credentialBackedUp } = result.registrationInfo;
      return {
        id: credential.id,
        publicKey: Buffer.from(credential.publicKey).toString('base64url'),
        counter: credential.counter,
        transports: credential.transports ?? [],
        backedUp: credentialBackedUp,
      };
    } catch {
      return null; // malformed or forged: the library throws for what it refuses
    }
  }

  async authenticationOptions(allow: readonly PasskeyCredential[]): Promise<CeremonyOptions> {
    const options = await generateAuthenticationOptions({
      rpID: this.party.rpId,
      allowCredentials: allow.map((credential) => ({ id: credential.id, transports: [...credential.transports] })),
      timeout: CEREMONY_TIMEOUT_MS,
      userVerification: USER_VERIFICATION,
    });
    return { options: toJson(options), challenge: options.challenge };
  }

  credentialIdOf(response: JsonObject): string | null {
    const { id, rawId, type } = response;
    return typeof id === 'string' && id !== '' && id === rawId && type === 'public-key' ? id : null;
  }

  async verifyAuthentication(
    response: JsonObject,
    expectedChallenge: string,
    credential: PasskeyCredential,
  ): Promise<VerifiedAssertion | null> {
    try {
      const result = await verifyAuthenticationResponse({
        response: response as unknown as AuthenticationResponseJSON,
        expectedChallenge,
        expectedOrigin: [...this.party.origins],
        expectedRPID: this.party.rpId,
        credential: {
          id: credential.id,
          publicKey: Buffer.from(credential.publicKey, 'base64url'),
          counter: 0, // see the class comment: the caller compares counters
          transports: credential.transports as AuthenticatorTransportFuture[],
        },
        requireUserVerification: false,
      });
      if (!result.verified) return null;
      return { counter: result.authenticationInfo.newCounter, userVerified: result.authenticationInfo.userVerified };
    } catch {
      return null;
    }
  }
}

type AuthenticatorTransportFuture = NonNullable<RegistrationResponseJSON['response']['transports']>[number];

/** The options as plain JSON (they are already: strings, numbers, arrays), without undefined members. */
const toJson = (options: object): JsonObject => JSON.parse(JSON.stringify(options)) as JsonObject;
