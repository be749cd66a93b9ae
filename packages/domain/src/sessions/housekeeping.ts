import type { AuditTrail } from '../audit/audit-trail.ts';
import type { Clock } from '../shared/clock.ts';
import type { LoginAttemptRepository } from '../throttling/login-attempt.repository.ts';
import type { RateCounterRepository } from '../throttling/rate-counter.repository.ts';
import type { ThrottlePolicy } from '../throttling/throttle.ts';
import type { SignInChallengeRepository } from '../sign-in/sign-in-challenge.repository.ts';
import type { OAuthAttemptRepository } from '../identities/oauth-attempt.repository.ts';
import type { OpenIdRecordRepository } from '../openid/openid-record.repository.ts';
import type { SessionRepository } from './session.repository.ts';
import { SECOND_FACTOR_RULES } from '../factors/second-factor-rules.ts';

export interface HousekeepingDeps {
  sessions: SessionRepository;
  attempts: LoginAttemptRepository;
  rateCounters: RateCounterRepository;
  signInChallenges: SignInChallengeRepository;
  oauthAttempts: OAuthAttemptRepository;
  openIdRecords: OpenIdRecordRepository;
  audit: AuditTrail;
  clock: Clock;
  throttle: ThrottlePolicy;
  /** Days an audit event is kept; 0 keeps every event. */
  auditRetentionDays: number;
}

const DAY_MS = 86_400_000;
/** Expired OpenID records removed per statement: each pass holds its locks briefly, however many expired. */
const OPENID_BATCH = 1000;

/**
 * Removes what can no longer affect any request: expired refresh tokens, dead sessions and
 * failed logins outside every throttling window, hit counters whose window ended, expired sign-in
 * challenges, OAuth attempts whose state and code both expired, the OpenID engine's expired records
 * (codes, tokens, sessions, interactions, grants); and audit events past their retention, which
 * the trail prunes so that what remains still verifies. Safe to run on many instances at once.
 */
export class Housekeeping {
  constructor(private readonly deps: HousekeepingDeps) {}

  async run(): Promise<void> {
    const {
      sessions,
      attempts,
      rateCounters,
      signInChallenges,
      oauthAttempts,
      openIdRecords,
      audit,
      clock,
      throttle,
      auditRetentionDays,
    } = this.deps;
    const now = clock.now();
    // The second step's lock counts its failures among the login attempts too (SecondStepLock).
    const longestWindow = Math.max(
      throttle.perAccountAndAddress.windowSeconds,
      throttle.perAddress.windowSeconds,
      SECOND_FACTOR_RULES.lock.seconds,
    );
    await sessions.prune(now);
    await attempts.prune(new Date(now.getTime() - longestWindow * 1000));
    await rateCounters.prune(now);
    await signInChallenges.prune(now);
    await oauthAttempts.deleteExpired(now);
    while ((await openIdRecords.deleteExpired(now, OPENID_BATCH)) === OPENID_BATCH);
    if (auditRetentionDays > 0) await audit.prune(new Date(now.getTime() - auditRetentionDays * DAY_MS));
  }
}
