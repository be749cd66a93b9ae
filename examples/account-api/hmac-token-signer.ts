import {
  InvalidTokenError,
  isJsonObject,
  type Clock,
  type JsonObject,
  type TokenPurpose,
  type TokenSigner,
  type VerifiedToken,
} from '@uas/domain';
import { decode, encode } from './base64url.ts';

const HEADER = encode(new TextEncoder().encode(JSON.stringify({ alg: 'HS256', typ: 'JWT' })));
const PURPOSES: readonly TokenPurpose[] = ['admin_access', 'user_access', 'refresh'];

/** HS256 JWTs signed with Web Crypto; the audience is the token's purpose. */
export class HmacTokenSigner implements TokenSigner {
  private constructor(
    private readonly key: CryptoKey,
    private readonly issuer: string,
    private readonly clock: Clock,
  ) {}

  static async create(secret: string, issuer: string, clock: Clock): Promise<HmacTokenSigner> {
    const key = await crypto.subtle.importKey(
      'raw',
      new TextEncoder().encode(secret),
      { name: 'HMAC', hash: 'SHA-256' },
      false,
      ['sign', 'verify'],
    );
    return new HmacTokenSigner(key, issuer, clock);
  }

  async sign(purpose: TokenPurpose, claims: JsonObject, issuedAt: Date, expiresAt: Date): Promise<string> {
    const payload = {
      ...claims,
      iss: this.issuer,
      aud: purpose,
      iat: Math.floor(issuedAt.getTime() / 1000),
      exp: Math.floor(expiresAt.getTime() / 1000),
    };
    const body = `${HEADER}.${encode(new TextEncoder().encode(JSON.stringify(payload)))}`;
    const signature = await crypto.subtle.sign('HMAC', this.key, new TextEncoder().encode(body));
    return `${body}.${encode(new Uint8Array(signature))}`;
  }

  async verify(token: string, purposes: readonly TokenPurpose[]): Promise<VerifiedToken> {
    const [header, payload, signature] = token.split('.');
    if (header !== HEADER || !payload || !signature) throw new InvalidTokenError();
    let claims: unknown;
    try {
      const valid = await crypto.subtle.verify(
        'HMAC',
        this.key,
        decode(signature),
        new TextEncoder().encode(`${header}.${payload}`),
      );
      claims = valid ? JSON.parse(new TextDecoder().decode(decode(payload))) : undefined;
    } catch {
      throw new InvalidTokenError();
    }
    if (!isJsonObject(claims) || claims.iss !== this.issuer) throw new InvalidTokenError();
    const purpose = PURPOSES.find((candidate) => candidate === claims.aud);
    if (!purpose || !purposes.includes(purpose)) throw new InvalidTokenError();
    if (typeof claims.exp !== 'number' || claims.exp * 1000 <= this.clock.now().getTime())
      throw new InvalidTokenError();
    return { purpose, claims };
  }
}
