import { token } from '../shared/token.ts';
import type { JsonObject } from '../shared/json.ts';

/**
 * What a token is for. Each purpose has its own audience, so a token of one purpose never
 * verifies as another (a refresh token is no access token; a user token opens no admin route).
 */
export type TokenPurpose = 'admin_access' | 'user_access' | 'refresh';

export interface VerifiedToken {
  purpose: TokenPurpose;
  /** The payload, registered claims included (`sub`, `sid`, `jti`, `iat`, `exp`...). */
  claims: JsonObject;
}

/** Signs and verifies the service's JWTs. Verification failures reject with InvalidTokenError. */
export interface TokenSigner {
  /** Adds `iss`, `aud` (from the purpose), `iat` and `exp` to `claims`. */
  sign(purpose: TokenPurpose, claims: JsonObject, issuedAt: Date, expiresAt: Date): Promise<string>;
  /** Accepts a token whose audience belongs to one of `purposes` and tells which. */
  verify(token: string, purposes: readonly TokenPurpose[]): Promise<VerifiedToken>;
}
export const TokenSigner = token<TokenSigner>('TokenSigner');
