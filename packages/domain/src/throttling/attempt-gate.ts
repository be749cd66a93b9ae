import type { Clock } from '../shared/clock.ts';
import { TooManyAttemptsError } from '../shared/errors.ts';
import type { IdGenerator } from '../shared/id-generator.ts';
import type { LoginAttemptRepository } from './login-attempt.repository.ts';
import { retryAfterSeconds, windowStart, type ThrottleRule } from './throttle.ts';

export interface AttemptGateDeps {
  attempts: LoginAttemptRepository;
  ids: IdGenerator;
  clock: Clock;
}

/** An attempt let through: its id, and whether its failure would fill a key to its limit. */
export interface Attempt {
  readonly id: string;
  /** Failing, this attempt is the one that starts the throttling of one of its keys. */
  readonly failureThrottles: boolean;
  /** Failures other than this attempt counted under one of its keys as it entered. */
  readonly followsFailures: boolean;
}

/** A key to count an attempt under, and the limit it is held to. */
export type ThrottleCheck = readonly [key: string, rule: ThrottleRule];

/**
 * Lets password guesses through one at a time in the count: each attempt is recorded before it
 * is judged, so a burst of concurrent guesses counts itself and cannot all slip in under the
 * limit. A recorded attempt is a failure until `succeeded()` takes it back.
 */
export class AttemptGate {
  constructor(private readonly deps: AttemptGateDeps) {}

  /**
   * Records an attempt under every key (those of `checks`, and `counted`, which no rule limits)
   * and resolves it; refuses it (TooManyAttemptsError with the longest wait, nothing recorded)
   * when a key of `checks` already holds its limit of failures.
   */
  async enter(checks: readonly ThrottleCheck[], refusal: string, counted: readonly string[] = []): Promise<Attempt> {
    const { attempts, ids, clock } = this.deps;
    const id = ids.next();
    const now = clock.now();
    await attempts.record(id, [...checks.map(([key]) => key), ...counted], now);
    const judged = await Promise.all(
      checks.map(async ([key, rule]) => {
        const stats = await attempts.failuresSince(key, windowStart(rule, now));
        // The count includes this attempt: the key is full when the others reach the limit.
        const wait = retryAfterSeconds({ ...stats, count: stats.count - 1 }, rule, now) ?? 0;
        return { wait, fills: stats.count >= rule.limit, follows: stats.count > 1 };
      }),
    );
    const longest = Math.max(0, ...judged.map(({ wait }) => wait));
    if (longest > 0) {
      await attempts.withdraw(id);
      throw new TooManyAttemptsError(longest, refusal);
    }
    return {
      id,
      failureThrottles: judged.some(({ fills }) => fills),
      followsFailures: judged.some(({ follows }) => follows),
    };
  }

  /** The attempt proved right: it no longer counts as a failure. */
  succeeded(attempt: Attempt): Promise<void> {
    return this.deps.attempts.withdraw(attempt.id);
  }
}
