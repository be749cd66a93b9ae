import type { JsonObject } from '@uas/domain';

/** Tokens remembered at most; the least recently verified go first. */
const TOKENS_HELD = 1_000;

/**
 * How many tokens may be remembered after a token before finding it moves it to the back of
 * the queue again: moving it on every use would cost each request a delete and an insert, for an
 * order that only matters once a token has aged half-way to eviction.
 */
const REFRESH_AFTER = TOKENS_HELD / 2;

export interface Verified {
  /** The `kid` of the key that verified the token. */
  kid: string;
  claims: JsonObject;
}

interface Held extends Verified {
  /** The count of remembered tokens when this one was last put at the back. */
  placed: number;
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
  private readonly held = new Map<string, Held>();
  private placed = 0;

  /** What the verification of exactly `token` found, when it is remembered. */
  find(token: string): Verified | undefined {
    const found = this.held.get(token);
    if (found && this.placed - found.placed > REFRESH_AFTER) {
      this.held.delete(token);
      this.place(token, found);
    }
    return found;
  }

  remember(token: string, kid: string, claims: JsonObject): void {
    this.place(token, { kid, claims, placed: 0 });
    if (this.held.size > TOKENS_HELD) this.held.delete(this.held.keys().next().value as string);
  }

  private place(token: string, held: Held): void {
    this.placed += 1;
    held.placed = this.placed;
    this.held.set(token, held);
  }
}
