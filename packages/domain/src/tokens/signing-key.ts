import type { JsonObject } from '../shared/json.ts';

/**
 * A key pair that signs tokens, stored so that every instance signs and verifies alike. It is
 * published (its public half in the JWKS) from the moment it is stored, and signs from
 * `activates`: a rotation stores the new key ahead of that time, so that verifiers holding a
 * cached JWKS already know it when the first token it signed reaches them.
 */
export interface SigningKey {
  readonly kid: string;
  /** JOSE algorithm name: ES256, EdDSA or RS256. */
  readonly algorithm: string;
  readonly privateJwk: JsonObject;
  readonly publicJwk: JsonObject;
  readonly created: Date;
  /** When every instance starts signing with it (instead of the key activated before it). */
  readonly activates: Date;
  /**
   * Null while no newer key is stored. Set when a newer key is: the key still verifies (and is
   * published) until then, so tokens it signed until the newer key's activation live out their
   * lifetime.
   */
  readonly retires: Date | null;
}

/**
 * The key that signs at `now`: of those already activated, the one activated last (on a tie, the
 * newer one). Null when none is activated yet. Every instance applies this rule to the stored
 * keys, so all of them switch at the same stored time, not when each happens to read the keys.
 */
export function signingKeyAt<K extends Pick<SigningKey, 'created' | 'activates'>>(
  keys: readonly K[],
  now: Date,
): K | null {
  let signing: K | null = null;
  for (const key of keys) {
    if (key.activates.getTime() > now.getTime()) continue;
    const later =
      !signing ||
      key.activates.getTime() > signing.activates.getTime() ||
      (key.activates.getTime() === signing.activates.getTime() && key.created.getTime() > signing.created.getTime());
    if (later) signing = key;
  }
  return signing;
}
