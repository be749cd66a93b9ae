import type { RequestContext } from '../audit/audit-event.ts';
import type { AuthMethod } from '../factors/factor.ts';
import type { SecondFactorProofs } from '../factors/second-factor-proofs.ts';
import { SECOND_FACTOR_RULES } from '../factors/second-factor-rules.ts';
import type { EmailVerification } from '../sessions/auth-service.ts';
import type { PrincipalSource } from '../sessions/principal.ts';
import type { Clock } from '../shared/clock.ts';
import { InvalidChallengeError, InvalidSecondFactorError } from '../shared/errors.ts';
import type { JsonObject } from '../shared/json.ts';
import { challengeDigest } from './sign-in-challenge.ts';
import type { SecondStepLock } from './second-step-lock.ts';
import type { SessionGrant, SessionGrants } from './session-grants.ts';
import type { SignInChallenge } from './sign-in-challenge.ts';
import type { SignInChallengeRepository } from './sign-in-challenge.repository.ts';
import { assertMaySignIn } from './sign-in-standing.ts';

export interface SecondStepDeps {
  principals: PrincipalSource;
  signInChallenges: SignInChallengeRepository;
  proofs: SecondFactorProofs;
  lock: SecondStepLock;
  grants: SessionGrants;
  clock: Clock;
  policy: { emailVerification: EmailVerification };
}

/** The answer to a challenge: a TOTP or recovery code, or a passkey assertion (AuthenticationResponseJSON). */
export type SecondStepAnswer = { readonly code: string } | { readonly credential: JsonObject };

const { maxFailures } = SECOND_FACTOR_RULES.challenge;

/**
 * The second step (`POST /v1/login/mfa`, `/v1/admin/login/mfa`): the challenge found by its
 * handle's digest (of this kind of account only, so an admin's challenge is no user's), the answer
 * proved by SecondFactorProofs for the challenge's own account. The challenge is completed (once,
 * atomically) before the answer is proved, so of two answers racing on one challenge the loser
 * uses up nothing: neither its TOTP step nor its recovery code. A wrong answer gives the
 * challenge back with one failure counted in the same write (5 end it), and counts against the
 * account's second step (see SecondStepLock); a right one opens the session, with the account
 * checked again as at the password step and unchanged since it.
 */
export class SecondStep {
  constructor(private readonly deps: SecondStepDeps) {}

  async complete(handle: string, answer: SecondStepAnswer, request: RequestContext): Promise<SessionGrant> {
    const { principals, signInChallenges, lock, grants, clock, policy } = this.deps;
    const kind = principals.kind;
    const id = challengeDigest(handle);
    const now = clock.now();
    const challenge = await signInChallenges.find(id);
    if (!challenge?.subjectId || !isOpen(challenge, kind, now)) throw new InvalidChallengeError();
    const subjectId = challenge.subjectId;
    const attempt = await lock.enter(kind, subjectId);
    if (!(await signInChallenges.complete(id, now, maxFailures))) {
      // Another answer holds (or has used) the challenge: this one was not judged, so not counted.
      await lock.withdraw(attempt);
      throw new InvalidChallengeError();
    }
    const method = await this.prove(challenge, subjectId, answer, now, request);
    if (method === null) {
      await signInChallenges.fail(id, now);
      await lock.failed(kind, subjectId, attempt, request);
      throw new InvalidSecondFactorError();
    }
    await lock.succeeded(kind, subjectId, attempt);
    const principal = await principals.findById(subjectId);
    if (!principal) throw new InvalidChallengeError();
    assertMaySignIn(principal, policy.emailVerification);
    // A password (or email) changed since the first step: that step no longer proves anything.
    if (principal.updated.getTime() > challenge.created.getTime()) throw new InvalidChallengeError();
    const session = await grants.open(principal, [...challenge.methods, method, 'mfa'], request);
    if (!session) throw new InvalidChallengeError();
    return session;
  }

  private async prove(
    challenge: SignInChallenge,
    subjectId: string,
    answer: SecondStepAnswer,
    now: Date,
    request: RequestContext,
  ): Promise<AuthMethod | null> {
    const { proofs } = this.deps;
    if ('code' in answer) return proofs.proveCode(challenge.owner, subjectId, answer.code, now, request);
    if (!challenge.webauthnChallenge) return null;
    const proof = await proofs.proveCredential(
      challenge.owner,
      subjectId,
      answer.credential,
      challenge.webauthnChallenge,
      now,
      request,
    );
    return proof?.method ?? null;
  }
}

/** Whether a challenge may still be answered: the route's kind, not completed, not expired, not ended by failures. */
function isOpen(challenge: SignInChallenge, kind: string, now: Date): boolean {
  return (
    challenge.owner === kind &&
    challenge.completed === null &&
    challenge.expires.getTime() > now.getTime() &&
    challenge.failures < maxFailures
  );
}
