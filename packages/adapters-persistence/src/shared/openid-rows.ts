import type { OAuthClient, SealedText } from '@uas/domain';

/** A client as both dialects store it: its sealed secret as key id and ciphertext columns. */
export interface OAuthClientRow extends Omit<OAuthClient, 'secret'> {
  secretKeyId: string | null;
  secretCiphertext: string | null;
}

export function oauthClientOf({ secretKeyId, secretCiphertext, ...row }: OAuthClientRow): OAuthClient {
  const secret: SealedText | null =
    secretKeyId === null || secretCiphertext === null ? null : { keyId: secretKeyId, ciphertext: secretCiphertext };
  return { ...row, secret };
}

export function oauthClientRow({ secret, ...client }: OAuthClient): OAuthClientRow {
  return { ...client, secretKeyId: secret?.keyId ?? null, secretCiphertext: secret?.ciphertext ?? null };
}
