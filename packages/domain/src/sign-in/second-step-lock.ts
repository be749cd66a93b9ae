import { auditRecord } from '../audit/audit-records.ts';
import type { RequestContext } from '../audit/audit-event.ts';
import type { AuditTrail } from '../audit/audit-trail.ts';
import { SECOND_FACTOR_RULES } from '../factors/second-factor-rules.ts';
import type { Clock } from '../shared/clock.ts';
import type { IdGenerator } from '../shared/id-generator.ts';
import type { SubjectKind } from '../shared/identity.ts';
import { AttemptGate, type Attempt } from '../throttling/attempt-gate.ts';
import type { LoginAttemptRepository } from '../throttling/login-attempt.repository.ts';

export interface SecondStepLockDeps {
  attempts: LoginAttemptRepository;
  audit: AuditTrail;
  clock: Clock;
  ids: IdGenerator;
}

const RULE = { limit: SECOND_FACTOR_RULES.lock.failures, windowSeconds: SECOND_FACTOR_RULES.lock.seconds };
const ACCOUNT_TYPE = { admin: 'admins', user: 'users' } as const;

/** The attempt counter key of an account's second steps (apart from its password logins'). */
const lockKey = (kind: SubjectKind, subjectId: string) => `second-step:${kind}:${subjectId}`;

/**
 * 10 wrong second steps of one account in a row, over any of its challenges and from anywhere,
 * lock its second step for 15 minutes (TooManyAttemptsError with Retry-After). Counted in the
 * database through the login attempts, as the password throttle is: each answer is recorded
 * before it is judged, so a burst of guesses counts itself; a right answer takes its attempt back
 * and clears the count, so only consecutive failures lock.
 */
export class SecondStepLock {
  private readonly gate: AttemptGate;

  constructor(private readonly deps: SecondStepLockDeps) {
    this.gate = new AttemptGate(deps);
  }

  /** Records an answer about to be judged; refuses it when the account's second step is locked. */
  enter(kind: SubjectKind, subjectId: string): Promise<Attempt> {
    return this.gate.enter([[lockKey(kind, subjectId), RULE]], 'Too many wrong second steps; try again later.');
  }

  /**
   * The answer was right: the failures before it no longer count. One write: the key's count is
   * cleared (its attempt with it) only when the gate saw failures before it; otherwise taking its
   * own attempt back is enough, and a failure recorded meanwhile by a concurrent answer stands.
   */
  async succeeded(kind: SubjectKind, subjectId: string, attempt: Attempt): Promise<void> {
    if (attempt.followsFailures) await this.deps.attempts.clear(lockKey(kind, subjectId));
    else await this.gate.succeeded(attempt);
  }

  /** The answer was not judged (its challenge was taken): it counts neither way. */
  withdraw(attempt: Attempt): Promise<void> {
    return this.gate.succeeded(attempt);
  }

  /** The answer was wrong (its attempt stays a failure); the one that fills the count is audited. */
  async failed(kind: SubjectKind, subjectId: string, attempt: Attempt, request: RequestContext): Promise<void> {
    if (!attempt.failureThrottles) return;
    const { audit, ids, clock } = this.deps;
    const target = { type: ACCOUNT_TYPE[kind], id: subjectId };
    await audit.append(
      auditRecord(ids.next(), clock.now(), { actor: { type: 'system', id: null }, request }, 'mfa.locked', target),
    );
  }
}
