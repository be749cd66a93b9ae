import type { JsonObject } from '@uas/domain';

/** Tokens remembered at most; the least recently verified go first. */
const TOKENS_HELD = 1_000;

interface Verified {
  kid: string;
  claims: JsonObject;
}

/**
 * The claims of token strings whose signature has been verified, so a client sending the same
 * access token with every request costs one ECDSA verification, not one per request. Only an
 * exact string that passed the full verification is found here, so no forged or altered token
 * can be; what changes with time is checked again on every use: the key named by `kid` must
 * still be one that verifies, and the expiry is compared with the clock. Whether the session or
 * admin behind the token is still active is the caller's check, made on every request as before.
 */
export class VerifiedTokens {
  private readonly held = new Map<string, Verified>();

  /** The claims of `token`, when it was verified with the key `kid`. */
  claims(token: string, kid: string): JsonObject | undefined {
    const found = this.held.get(token);
    if (!found || found.kid !== kid) return undefined;
    this.held.delete(token);
    this.held.set(token, found);
    return found.claims;
  }

  remember(token: string, kid: string, claims: JsonObject): void {
    this.held.set(token, { kid, claims });
    if (this.held.size > TOKENS_HELD) this.held.delete(this.held.keys().next().value as string);
  }
}
