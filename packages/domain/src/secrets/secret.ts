/**
 * What a secret of the key ring serves. Each purpose has its own current secret and rotates on
 * its own; `mail-body` seals queued mail, `token-hmac` keys the digests single-use tokens are
 * stored under, `factor-secret` seals TOTP secrets (its own material is stored wrapped under the
 * MFA key, which the database does not hold), `webhook-secret` seals webhook endpoints' signing
 * secrets, `identity-provider-secret` seals identity providers' client secrets and the PKCE
 * verifiers of attempts in flight, `oauth-client-secret` seals the secrets of the applications
 * that sign in through this service (the OpenID engine compares them in plain text).
 */
export const SECRET_PURPOSES = [
  'mail-body',
  'token-hmac',
  'factor-secret',
  'webhook-secret',
  'identity-provider-secret',
  'oauth-client-secret',
] as const;
export type SecretPurpose = (typeof SECRET_PURPOSES)[number];

/**
 * A symmetric secret, stored so that every instance seals and opens alike, like the signing
 * keys. What was sealed names the secret's id, so a retired secret still opens it.
 */
export interface Secret {
  readonly id: string;
  readonly purpose: SecretPurpose;
  /** The key bytes, base64url: 32 random bytes (for `factor-secret`, as stored: wrapped under the MFA key). */
  readonly material: string;
  readonly created: Date;
  /** Null for the secret that seals now; set when a newer one of its purpose replaces it. */
  readonly retired: Date | null;
}

/** Something sealed under a secret of the key ring: the secret's id beside the ciphertext. */
export interface SealedText {
  readonly keyId: string;
  /** base64url of the nonce, the ciphertext and its authentication tag. */
  readonly ciphertext: string;
}
