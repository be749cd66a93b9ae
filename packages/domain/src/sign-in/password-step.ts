import { auditRecord } from '../audit/audit-records.ts';
import { SYSTEM_ACTOR, type AuditActor, type AuditAction, type RequestContext } from '../audit/audit-event.ts';
import type { AuditTrail } from '../audit/audit-trail.ts';
import type { FactorRepository } from '../factors/factor.repository.ts';
import type { AuthPolicy } from '../sessions/auth-service.ts';
import type { PasswordRehashRepository } from '../sessions/password-rehash.repository.ts';
import type { Principal, PrincipalSource } from '../sessions/principal.ts';
import type { Clock } from '../shared/clock.ts';
import { InvalidCredentialsError } from '../shared/errors.ts';
import type { IdGenerator } from '../shared/id-generator.ts';
import { isStorableText } from '../shared/json.ts';
import type { PasswordHasher } from '../shared/password-hasher.ts';
import type { ActivityRepository } from '../stats/activity.repository.ts';
import { AttemptGate } from '../throttling/attempt-gate.ts';
import type { LoginAttemptRepository } from '../throttling/login-attempt.repository.ts';
import { throttleKeys } from '../throttling/throttle.ts';
import { hasPassword, passwordMatches } from '../users/password-match.ts';
import { normalizeEmail } from '../users/user.rules.ts';
import type { ChallengeIssuing, IssuedChallenge } from './challenge-issuing.ts';
import type { SessionGrant, SessionGrants } from './session-grants.ts';
import { assertMaySignIn } from './sign-in-standing.ts';

export interface PasswordStepDeps {
  principals: PrincipalSource;
  attempts: LoginAttemptRepository;
  /** Where the overview counts end users' failed logins; their logins count as their sessions open. */
  activity: ActivityRepository;
  rehash: PasswordRehashRepository;
  audit: AuditTrail;
  hasher: PasswordHasher;
  factors: FactorRepository;
  issuing: ChallengeIssuing;
  grants: SessionGrants;
  clock: Clock;
  ids: IdGenerator;
  policy: AuthPolicy;
}

/** What a sign-in step ends in: the session, or (a password of an account with a factor) the challenge of the second step. */
export type SignInOutcome =
  | { readonly session: SessionGrant; readonly challenge?: never }
  | { readonly challenge: IssuedChallenge; readonly session?: never };

const ACCOUNT_TYPE = { admin: 'admins', user: 'users' } as const;

/**
 * The password step (`POST /v1/login`, `/v1/admin/login`): the email and password, throttled per
 * account and address and per address, verified in the same time whether or not the account
 * exists. An account with an active second factor gets a challenge and no token; any other its
 * session (`amr` `pwd`). For admins the audit trail records each failed login; for users, the
 * failure that starts the throttling of their logins.
 */
export class PasswordStep {
  private timingHash: Promise<string> | undefined;
  private readonly gate: AttemptGate;

  constructor(private readonly deps: PasswordStepDeps) {
    this.gate = new AttemptGate(deps);
  }

  async login(
    email: string,
    password: string,
    clientAddress: string,
    request: RequestContext = { requestId: null, clientAddress, userAgent: null },
  ): Promise<SignInOutcome> {
    const { principals, attempts, hasher, policy } = this.deps;
    const kind = principals.kind;
    const normalized = normalizeEmail(email);
    // No account has such an address (the rules refuse it), and PostgreSQL cannot even store it in
    // a throttle key: refuse it as any unknown email.
    if (!isStorableText(normalized)) throw new InvalidCredentialsError();
    const keys = throttleKeys(kind, normalized, clientAddress);
    const attempt = await this.gate.enter(
      [
        [keys.accountAndAddress, policy.throttle.perAccountAndAddress],
        [keys.address, policy.throttle.perAddress],
      ],
      'Too many failed login attempts; try again later.',
      [keys.account],
    );

    const principal = await principals.findByEmail(normalized);
    // Verify against a throwaway hash when the email is unknown or its account has no password,
    // so every refusal takes as long.
    const hash = principal && hasPassword(principal.passwordHash) ? principal.passwordHash : null;
    // A wrong password leaves the attempt recorded: that is the failure that counts.
    const matches = await passwordMatches(hasher, password, hash ?? (await this.hashForTiming()));
    if (!matches || !principal || hash === null) {
      if (kind === 'user') await this.deps.activity.countFailedLogin(this.deps.clock.now());
      await this.recordFailedLogin(principal, attempt.failureThrottles, request);
      throw new InvalidCredentialsError();
    }
    await this.gate.succeeded(attempt);
    assertMaySignIn(principal, policy.emailVerification);
    await attempts.clear(keys.accountAndAddress);
    if (await this.deps.factors.hasActive(kind, principal.id)) {
      await this.rehashIfDue(principal, password);
      return { challenge: await this.deps.issuing.issue(principal.id, ['pwd'], request) };
    }
    const session = await this.deps.grants.open(principal, ['pwd'], request);
    if (!session) return this.refuseChanged(principal);
    // Only now, with the session standing: the store's check compares the hash it verified.
    await this.rehashIfDue(principal, password);
    return { session };
  }

  private async recordFailedLogin(principal: Principal | null, throttles: boolean, request: RequestContext) {
    const kind = this.deps.principals.kind;
    const target = principal && { type: ACCOUNT_TYPE[kind], id: principal.id };
    const append = (actor: AuditActor, action: AuditAction) =>
      this.deps.audit.append(
        auditRecord(this.deps.ids.next(), this.deps.clock.now(), { actor, request }, action, target),
      );
    if (kind === 'admin') await append({ type: 'admin', id: principal?.id ?? null }, 'admin.login_failed');
    else if (throttles) await append(SYSTEM_ACTOR, 'user.login_throttled');
  }

  /**
   * The answer to a login whose account changed before its session could open: deactivated or
   * banned meanwhile (the password was right, so that may be told), else invalid credentials.
   */
  private async refuseChanged(verified: Principal): Promise<never> {
    const now = await this.deps.principals.findById(verified.id);
    const sameCredentials = now?.passwordHash === verified.passwordHash && now.email === verified.email;
    if (sameCredentials) assertMaySignIn(now, this.deps.policy.emailVerification);
    throw new InvalidCredentialsError();
  }

  /**
   * A hash brought in by an import (or made at another bcrypt cost) is replaced by one of the
   * configured kind, now that the password is known to be right; a concurrent password change wins.
   */
  private async rehashIfDue(principal: Principal, password: string): Promise<void> {
    const { hasher, rehash, principals } = this.deps;
    if (!hasher.needsRehash(principal.passwordHash)) return;
    await rehash.replaceHash(principals.kind, principal.id, principal.passwordHash, await hasher.hash(password));
  }

  private hashForTiming(): Promise<string> {
    this.timingHash ??= this.deps.hasher.hash('timing-equaliser-password');
    return this.timingHash;
  }
}
