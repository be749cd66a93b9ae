import { token } from '../shared/token.ts';
import type { OAuthAttempt, UpstreamAccount } from './oauth-attempt.ts';

/**
 * Stores attempts (`oauth_attempts`). Each step that spends a single-use value is one atomic
 * statement (`UPDATE … WHERE <unused and unexpired> RETURNING`), so of two requests at once with
 * the same value exactly one gets the attempt and the other null.
 */
export interface OAuthAttemptRepository {
  create(attempt: OAuthAttempt): Promise<void>;
  /** A link's browser takes the attempt over: sets `browserDigest` once, before expiry. */
  handOff(handoffDigest: string, browserDigest: string, now: Date): Promise<OAuthAttempt | null>;
  /**
   * The callback spends the state: only for the provider it was made for, from the browser that
   * holds its cookie, unused and unexpired. Null otherwise (nothing tells which).
   */
  useState(stateDigest: string, providerId: string, browserDigest: string, now: Date): Promise<OAuthAttempt | null>;
  /** Gives the attempt its one-time code, with the user it signs in (sign-in) or the account it links (link). */
  issueCode(
    id: string,
    code: { digest: string; expires: Date; userId: string | null; account: UpstreamAccount | null },
  ): Promise<void>;
  /** Spends the code: unused and unexpired, once. Null otherwise. */
  redeemCode(codeDigest: string, now: Date): Promise<OAuthAttempt | null>;
  /** Forgets attempts whose state and code both expired before `before`; answers how many (housekeeping). */
  deleteExpired(before: Date): Promise<number>;
}
export const OAuthAttemptRepository = token<OAuthAttemptRepository>('OAuthAttemptRepository');
