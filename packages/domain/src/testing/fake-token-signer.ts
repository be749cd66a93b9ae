import type { Clock } from '../shared/clock';
import { InvalidTokenError } from '../shared/errors';
import type { JsonObject } from '../shared/json';
import type { TokenPurpose, TokenSigner, VerifiedToken } from '../tokens/token-signer';

/**
 * An unsigned stand-in for the JWT signer in domain unit tests: it keeps purpose and expiry
 * rules but no cryptography. The jose signer has its own tests with real keys.
 */
export class FakeTokenSigner implements TokenSigner {
  constructor(private readonly clock: Clock) {}

  async sign(purpose: TokenPurpose, claims: JsonObject, issuedAt: Date, expiresAt: Date): Promise<string> {
    const payload = { ...claims, purpose, iat: Math.floor(issuedAt.getTime() / 1000), exp: Math.floor(expiresAt.getTime() / 1000) };
    return `fake.${btoa(JSON.stringify(payload))}`;
  }

  async verify(token: string, purposes: readonly TokenPurpose[]): Promise<VerifiedToken> {
    let payload: JsonObject & { purpose?: TokenPurpose; exp?: number };
    try {
      payload = JSON.parse(atob(token.replace(/^fake\./, '')));
    } catch {
      throw new InvalidTokenError();
    }
    const { purpose, ...claims } = payload;
    if (!purpose || !purposes.includes(purpose)) throw new InvalidTokenError();
    if (typeof payload.exp !== 'number' || payload.exp * 1000 <= this.clock.now().getTime()) throw new InvalidTokenError();
    return { purpose, claims };
  }
}
