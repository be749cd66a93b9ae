import type { SealedText } from '../secrets/secret.ts';
import type { SubjectKind } from '../shared/identity.ts';

/** The second factors an account can enrol; recovery codes are not one, they stand in for one. */
export const FACTOR_KINDS = ['totp', 'webauthn'] as const;
export type FactorKind = (typeof FACTOR_KINDS)[number];

/** What answers a sign-in challenge's second step: a factor, or one of the recovery codes. */
export const SECOND_STEP_KINDS = ['totp', 'webauthn', 'recovery_code'] as const;
export type SecondStepKind = (typeof SECOND_STEP_KINDS)[number];

/**
 * How a session's account proved who it is, as RFC 8176 names it and the access token's `amr`
 * carries it: `pwd` a password, `otp` a TOTP or recovery code, `hwk`/`swk` a device-bound or a
 * synced passkey, `mfa` more than one factor; `fed` an identity provider vouched (as Microsoft
 * Entra names it: RFC 8176 has no value for a federated sign-in).
 */
export const AUTH_METHODS = ['pwd', 'otp', 'hwk', 'swk', 'mfa', 'fed'] as const;
export type AuthMethod = (typeof AUTH_METHODS)[number];

/** A passkey's public credential, as the relying party keeps it after registration. */
export interface PasskeyCredential {
  /** The credential id, base64url. Unique across every account. */
  readonly id: string;
  /** The COSE public key, base64url. */
  readonly publicKey: string;
  /** The signature counter last seen; 0 for authenticators that do not count (synced passkeys). */
  readonly counter: number;
  readonly transports: readonly string[];
  /** Whether the authenticator says it is synced (backup state): its sign-ins are `swk`, else `hwk`. */
  readonly backedUp: boolean;
}

/**
 * One second factor of an admin or a user. It is pending (`activated` null) from its creation
 * until its owner proves it works; only active factors count at sign-in.
 */
export interface Factor {
  readonly id: string;
  readonly owner: SubjectKind;
  readonly subjectId: string;
  readonly kind: FactorKind;
  readonly created: Date;
  readonly activated: Date | null;
  readonly lastUsed: Date | null;
  /**
   * TOTP: the base32 secret sealed under the key ring's `factor-secret` purpose, with the factor's
   * id as context; and the last time step a code was accepted for (null until the first), which
   * only moves forward so a code is never accepted twice.
   */
  readonly totp: { readonly secret: SealedText; readonly lastStep: number | null } | null;
  /**
   * WebAuthn: the registration's challenge while pending (single use: the verify clears it), and
   * the credential once active.
   */
  readonly webauthn: { readonly challenge: string | null; readonly credential: PasskeyCredential | null } | null;
}

/** Whether the factor counts at sign-in. */
export const isActive = (factor: Factor): boolean => factor.activated !== null;
