import { base64url } from '../shared/base64url.ts';
import { sha256Hex } from '../shared/sha256.ts';

/** A PKCE code challenge as S256 makes it (RFC 7636): the unpadded base64url of 32 bytes, 43 characters. */
const S256_CHALLENGE = /^[A-Za-z0-9_-]{43}$/;
/** A PKCE code verifier (RFC 7636 §4.1): 43 to 128 unreserved characters. */
const VERIFIER = /^[A-Za-z0-9._~-]{43,128}$/;

export const isPkceChallenge = (value: string): boolean => S256_CHALLENGE.test(value);
export const isPkceVerifier = (value: string): boolean => VERIFIER.test(value);

/** The S256 challenge of `verifier`: base64url, unpadded, of its SHA-256 digest. */
export function pkceChallenge(verifier: string): string {
  const bytes = (sha256Hex(verifier).match(/../g) ?? []).map((pair) => Number.parseInt(pair, 16));
  return base64url(new Uint8Array(bytes));
}

/** Whether `verifier` is the one whose S256 challenge the app sent at the start. */
export const pkceMatches = (verifier: string, challenge: string): boolean =>
  isPkceVerifier(verifier) && pkceChallenge(verifier) === challenge;
