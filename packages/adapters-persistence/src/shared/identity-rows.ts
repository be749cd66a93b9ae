import type { IdentityProvider, OAuthAttempt, SealedText } from '@uas/domain';

/** A provider as both dialects store it: its sealed client secret as key id and ciphertext columns. */
export interface IdentityProviderRow extends Omit<IdentityProvider, 'clientSecret'> {
  clientSecretKey: string | null;
  clientSecret: string | null;
}

export function identityProviderOf({ clientSecretKey, clientSecret, ...row }: IdentityProviderRow): IdentityProvider {
  const sealed: SealedText | null =
    clientSecretKey === null || clientSecret === null ? null : { keyId: clientSecretKey, ciphertext: clientSecret };
  return { ...row, clientSecret: sealed };
}

export function identityProviderRow({ clientSecret, ...provider }: IdentityProvider): IdentityProviderRow {
  return {
    ...provider,
    clientSecretKey: clientSecret?.keyId ?? null,
    clientSecret: clientSecret?.ciphertext ?? null,
  };
}

/** An attempt as both dialects store it: the sealed PKCE verifier as key id and ciphertext columns. */
export interface OAuthAttemptRow extends Omit<OAuthAttempt, 'providerVerifier'> {
  verifierKey: string;
  verifier: string;
}

export function oauthAttemptOf({ verifierKey, verifier, ...row }: OAuthAttemptRow): OAuthAttempt {
  return { ...row, providerVerifier: { keyId: verifierKey, ciphertext: verifier } };
}

export function oauthAttemptRow({ providerVerifier, ...attempt }: OAuthAttempt): OAuthAttemptRow {
  return { ...attempt, verifierKey: providerVerifier.keyId, verifier: providerVerifier.ciphertext };
}
