import { token } from '../shared/token.ts';
import type { SignInChallenge } from './sign-in-challenge.ts';

/** Stores sign-in challenges where every instance sees them. */
export interface SignInChallengeRepository {
  create(challenge: SignInChallenge): Promise<void>;
  find(id: string): Promise<SignInChallenge | null>;
  /** Counts one wrong answer atomically and answers the failures after it (0 for an unknown id). */
  fail(id: string): Promise<number>;
  /**
   * Completes the challenge, once: true only for the one caller that finds it not completed, not
   * expired at `at` and with fewer than `maxFailures` failures.
   */
  complete(id: string, at: Date, maxFailures: number): Promise<boolean>;
  /** Forgets challenges that expired before `before`. */
  prune(before: Date): Promise<void>;
}
export const SignInChallengeRepository = token<SignInChallengeRepository>('SignInChallengeRepository');
