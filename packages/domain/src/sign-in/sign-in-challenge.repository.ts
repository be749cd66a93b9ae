import { token } from '../shared/token.ts';
import type { SignInChallenge } from './sign-in-challenge.ts';

/** Stores sign-in challenges where every instance sees them. */
export interface SignInChallengeRepository {
  create(challenge: SignInChallenge): Promise<void>;
  find(id: string): Promise<SignInChallenge | null>;
  /**
   * An answer that completed the challenge at `completed` did not prove: gives the challenge back
   * (not completed) and counts the failure, in one atomic write, and answers the failures after it;
   * 0, changing nothing, when the challenge is not completed at `completed` (unknown, open, or
   * completed by another answer).
   */
  fail(id: string, completed: Date): Promise<number>;
  /**
   * Completes the challenge, once: true only for the one caller that finds it not completed, not
   * expired at `at` and with fewer than `maxFailures` failures.
   */
  complete(id: string, at: Date, maxFailures: number): Promise<boolean>;
  /** Forgets challenges that expired before `before`. */
  prune(before: Date): Promise<void>;
}
export const SignInChallengeRepository = token<SignInChallengeRepository>('SignInChallengeRepository');
