import type { RequestContext } from '../audit/audit-event.ts';
import type { PasskeyCeremonies } from '../factors/passkey-ceremonies.ts';
import type { SecondFactorProofs } from '../factors/second-factor-proofs.ts';
import { challengeDigest } from './sign-in-challenge.ts';
import { SECOND_FACTOR_RULES } from '../factors/second-factor-rules.ts';
import type { EmailVerification } from '../sessions/auth-service.ts';
import type { PrincipalSource } from '../sessions/principal.ts';
import { addSeconds, type Clock } from '../shared/clock.ts';
import { InvalidSecondFactorError } from '../shared/errors.ts';
import type { JsonObject } from '../shared/json.ts';
import type { SecondStepLock } from './second-step-lock.ts';
import type { SessionGrant, SessionGrants } from './session-grants.ts';
import type { SignInChallengeRepository } from './sign-in-challenge.repository.ts';
import { assertMaySignIn } from './sign-in-standing.ts';

export interface PasskeyStepDeps {
  principals: PrincipalSource;
  ceremonies: PasskeyCeremonies;
  signInChallenges: SignInChallengeRepository;
  proofs: SecondFactorProofs;
  /** A passkey signs in alone only while the account's second step is not locked. */
  lock: SecondStepLock;
  grants: SessionGrants;
  clock: Clock;
  policy: { emailVerification: EmailVerification };
}

/** The options of a passwordless sign-in: the WebAuthn challenge (its id on the wire) and when it expires. */
export interface PasskeyOptions {
  readonly challenge: string;
  readonly options: JsonObject;
  readonly expires: Date;
}

/**
 * The passwordless sign-in with a discoverable passkey (`POST /v1/login/passkey/options`, then
 * `POST /v1/login/passkey`), and the source of the challenges a step-up assertion signs. The
 * options name no credential; the stored challenge has no account until an assertion names
 * one, and is found by the digest of the WebAuthn challenge the assertion signed: single use, 5
 * minutes. A passkey alone signs in only with user verification (`amr` `hwk` or `swk`, `aal2`),
 * and not while the account's second step is locked (429, as the passkey second step).
 */
export class PasskeyStep {
  constructor(private readonly deps: PasskeyStepDeps) {}

  async options(request: RequestContext): Promise<PasskeyOptions> {
    const { principals, ceremonies, signInChallenges, clock } = this.deps;
    const { challenge, options } = await ceremonies.authenticationOptions([]);
    const now = clock.now();
    const expires = addSeconds(now, SECOND_FACTOR_RULES.challenge.seconds);
    await signInChallenges.create({
      id: challengeDigest(challenge),
      owner: principals.kind,
      subjectId: null,
      kinds: ['webauthn'],
      webauthnChallenge: challenge,
      methods: [],
      created: now,
      expires,
      failures: 0,
      completed: null,
      clientAddress: request.clientAddress,
      userAgent: request.userAgent,
    });
    return { challenge, options, expires };
  }

  async signIn(credential: JsonObject, request: RequestContext): Promise<SessionGrant> {
    const { principals, proofs, lock, grants, clock, policy } = this.deps;
    const proof = await proofs.provePasskeyChallenge(principals.kind, null, credential, clock.now(), request);
    if (!proof?.userVerified) throw new InvalidSecondFactorError();
    // The account is known only now, from the assertion: a locked one is refused as at /v1/login/mfa.
    await lock.succeeded(principals.kind, proof.subjectId, await lock.enter(principals.kind, proof.subjectId));
    const principal = await principals.findById(proof.subjectId);
    if (!principal) throw new InvalidSecondFactorError();
    assertMaySignIn(principal, policy.emailVerification);
    const session = await grants.open(principal, [proof.method], request);
    if (!session) throw new InvalidSecondFactorError();
    return session;
  }
}
