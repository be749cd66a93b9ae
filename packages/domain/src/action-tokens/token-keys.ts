import { token } from '../shared/token.ts';

/**
 * Makes single-use tokens and the keyed digests they are stored and found by: HMAC-SHA256 under
 * the key ring's `token-hmac` secrets. A token made before a rotation is still found by the
 * digest under the secret it was made with, which stays in the ring.
 */
export interface TokenKeys {
  /** A new token: at least 128 random bits, as URL-safe text. */
  generate(): string;
  /** The digest a new token is stored under: under the current secret. */
  digest(token: string): Promise<string>;
  /**
   * The token's digest under every secret that can still have a live token (the current one, and
   * those retired less than the longest token lifetime ago), the current one first: what a lookup
   * matches. From the ring as this instance last read it, so it may miss a secret another instance
   * has just rotated in: see `reloadedDigests`.
   */
  digests(token: string): Promise<string[]>;
  /** The same, after reading the ring afresh: for a lookup that `digests` found nothing for. */
  reloadedDigests(token: string): Promise<string[]>;
}
export const TokenKeys = token<TokenKeys>('TokenKeys');
