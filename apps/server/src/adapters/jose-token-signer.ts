import { decodeProtectedHeader, jwtVerify, SignJWT } from 'jose';
import {
  epochSeconds,
  InvalidTokenError,
  type Clock,
  type JsonObject,
  type TokenPurpose,
  type TokenSigner,
  type VerifiedToken,
} from '@uas/domain';
import type { KeyRing, LoadedKey } from './key-ring';
import { VerifiedTokens } from './verified-tokens';

/** Audiences of the tokens only this service consumes; applications never accept them. */
export const ADMIN_AUDIENCE = 'urn:user-account-service:admin';
export const REFRESH_AUDIENCE = 'urn:user-account-service:refresh';

export interface JoseTokenSignerOptions {
  keyRing: KeyRing;
  clock: Clock;
  issuer: string;
  /** The audience of user access tokens: what the team's applications check. */
  userAudience: string;
  clockToleranceSeconds: number;
}

/**
 * Signs with the key ring's current asymmetric key (`kid` in every header) and verifies strictly:
 * the algorithm must be the one the named key was made for (so `alg: none` and HMAC tokens
 * never verify), and issuer, audience and expiry are checked against the injected clock.
 */
export class JoseTokenSigner implements TokenSigner {
  private readonly audiences: Record<TokenPurpose, string>;
  private readonly verified = new VerifiedTokens();

  constructor(private readonly options: JoseTokenSignerOptions) {
    this.audiences = { admin_access: ADMIN_AUDIENCE, user_access: options.userAudience, refresh: REFRESH_AUDIENCE };
  }

  async sign(purpose: TokenPurpose, claims: JsonObject, issuedAt: Date, expiresAt: Date): Promise<string> {
    const key = await this.options.keyRing.signingKey();
    return new SignJWT(claims)
      .setProtectedHeader({ alg: key.record.algorithm, kid: key.record.kid, typ: 'JWT' })
      .setIssuer(this.options.issuer)
      .setAudience(this.audiences[purpose])
      .setIssuedAt(epochSeconds(issuedAt))
      .setExpirationTime(epochSeconds(expiresAt))
      .sign(key.privateKey);
  }

  async verify(token: string, purposes: readonly TokenPurpose[]): Promise<VerifiedToken> {
    // A token verified before names its key in the header that verification read.
    const known = this.verified.find(token);
    const kid = known ? known.kid : headerKid(token);
    // Not among the refusals: a key ring that cannot read its keys (the database gone) is an
    // outage, answered 503, not a bad token that would make every client drop its session.
    const key = await this.options.keyRing.verificationKey(kid);
    if (!key) throw new InvalidTokenError();
    let claims = known?.claims;
    if (!claims) {
      claims = await this.verifySignature(token, key, purposes);
      this.verified.remember(token, kid, claims);
    }
    const now = epochSeconds(this.options.clock.now());
    // jose's own expiry rule: expired once `exp` is at or before now less the tolerance.
    if (typeof claims.exp !== 'number' || claims.exp <= now - this.options.clockToleranceSeconds)
      throw new InvalidTokenError();
    const aud = Array.isArray(claims.aud) ? claims.aud : [claims.aud];
    const purpose = purposes.find((candidate) => aud.includes(this.audiences[candidate]));
    if (!purpose) throw new InvalidTokenError();
    return { purpose, claims };
  }

  /** The full check: signature, algorithm, issuer, audience among `purposes`, and time claims. */
  private async verifySignature(token: string, key: LoadedKey, purposes: readonly TokenPurpose[]): Promise<JsonObject> {
    try {
      const { payload } = await jwtVerify(token, key.publicKey, {
        algorithms: [key.record.algorithm],
        issuer: this.options.issuer,
        audience: purposes.map((purpose) => this.audiences[purpose]),
        clockTolerance: this.options.clockToleranceSeconds,
        currentDate: this.options.clock.now(),
        requiredClaims: ['sub', 'exp', 'iat'],
      });
      return payload as JsonObject;
    } catch {
      throw new InvalidTokenError();
    }
  }
}

/** The `kid` a token's header names; a token without a readable one is refused. */
function headerKid(token: string): string {
  let kid: unknown;
  try {
    kid = decodeProtectedHeader(token).kid;
  } catch {
    throw new InvalidTokenError();
  }
  if (typeof kid !== 'string') throw new InvalidTokenError();
  return kid;
}
