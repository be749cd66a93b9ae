import type { JsonObject } from '../shared/json.ts';

/** A key pair that signs tokens, stored so that every instance signs and verifies alike. */
export interface SigningKey {
  readonly kid: string;
  /** JOSE algorithm name: ES256, EdDSA or RS256. */
  readonly algorithm: string;
  readonly privateJwk: JsonObject;
  readonly publicJwk: JsonObject;
  readonly created: Date;
  /**
   * Null for the key that signs now. Set when a newer key replaces it: the key still verifies
   * (and is published) until then, so tokens it signed live out their lifetime.
   */
  readonly retires: Date | null;
}
