import type { Clock } from '../shared/clock.ts';
import type { LoginAttemptRepository } from '../throttling/login-attempt.repository.ts';
import type { ThrottlePolicy } from '../throttling/throttle.ts';
import type { SessionRepository } from './session.repository.ts';

export interface HousekeepingDeps {
  sessions: SessionRepository;
  attempts: LoginAttemptRepository;
  clock: Clock;
  throttle: ThrottlePolicy;
}

/**
 * Removes what can no longer affect any request: expired refresh tokens, dead sessions and
 * failed logins outside every throttling window. Safe to run on many instances at once.
 */
export class Housekeeping {
  constructor(private readonly deps: HousekeepingDeps) {}

  async run(): Promise<void> {
    const { sessions, attempts, clock, throttle } = this.deps;
    const now = clock.now();
    const longestWindow = Math.max(throttle.perAccountAndAddress.windowSeconds, throttle.perAddress.windowSeconds);
    await sessions.prune(now);
    await attempts.prune(new Date(now.getTime() - longestWindow * 1000));
  }
}
