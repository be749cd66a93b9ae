import type { Clock } from '../shared/clock.ts';
import { InvalidTokenError } from '../shared/errors.ts';
import { isJsonObject, type JsonObject } from '../shared/json.ts';
import type { TokenPurpose, TokenSigner, VerifiedToken } from '../tokens/token-signer.ts';

/**
 * An unsigned stand-in for the JWT signer in domain unit tests: it keeps purpose and expiry
 * rules but no cryptography. The jose signer has its own tests with real keys.
 */
export class FakeTokenSigner implements TokenSigner {
  constructor(private readonly clock: Clock) {}

  async sign(purpose: TokenPurpose, claims: JsonObject, issuedAt: Date, expiresAt: Date): Promise<string> {
    const payload = {
      ...claims,
      purpose,
      iat: Math.floor(issuedAt.getTime() / 1000),
      exp: Math.floor(expiresAt.getTime() / 1000),
    };
    return `fake.${toBase64(JSON.stringify(payload))}`;
  }

  async verify(token: string, purposes: readonly TokenPurpose[]): Promise<VerifiedToken> {
    let payload: JsonObject & { purpose?: TokenPurpose; exp?: number };
    try {
      payload = JSON.parse(fromBase64(token.replace(/^fake\./, '')));
    } catch {
      throw new InvalidTokenError();
    }
    if (!isJsonObject(payload)) throw new InvalidTokenError();
    const { purpose, ...claims } = payload;
    if (!purpose || !purposes.includes(purpose)) throw new InvalidTokenError();
    if (typeof payload.exp !== 'number' || payload.exp * 1000 <= this.clock.now().getTime())
      throw new InvalidTokenError();
    return { purpose, claims };
  }
}

// btoa/atob take Latin-1 only; claims such as a name or metadata may hold any character.
function toBase64(text: string): string {
  return btoa(String.fromCodePoint(...new TextEncoder().encode(text)));
}

function fromBase64(encoded: string): string {
  return new TextDecoder('utf-8', { fatal: true }).decode(Uint8Array.from(atob(encoded), (c) => c.codePointAt(0)!));
}
