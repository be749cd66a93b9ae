import type { RequestContext } from '../audit/audit-event.ts';
import type { TokenKeys } from '../action-tokens/token-keys.ts';
import type { AuthMethod, SecondStepKind } from '../factors/factor.ts';
import type { FactorRepository } from '../factors/factor.repository.ts';
import type { PasskeyCeremonies } from '../factors/passkey-ceremonies.ts';
import { SECOND_FACTOR_RULES } from '../factors/second-factor-rules.ts';
import { addSeconds, type Clock } from '../shared/clock.ts';
import type { SubjectKind } from '../shared/identity.ts';
import type { JsonObject } from '../shared/json.ts';
import { challengeDigest, type SignInChallenge } from './sign-in-challenge.ts';
import type { SignInChallengeRepository } from './sign-in-challenge.repository.ts';

export interface ChallengeIssuingDeps {
  kind: SubjectKind;
  factors: FactorRepository;
  ceremonies: PasskeyCeremonies;
  signInChallenges: SignInChallengeRepository;
  /** Makes the random handle (256 bits in the server's key ring). */
  tokenKeys: Pick<TokenKeys, 'generate'>;
  clock: Clock;
}

/** What the client is given for its second step: the handle (only its digest is stored) and how to answer. */
export interface IssuedChallenge {
  readonly handle: string;
  readonly kinds: readonly SecondStepKind[];
  readonly expires: Date;
  /** The passkey request options (PublicKeyCredentialRequestOptionsJSON), when a passkey may answer. */
  readonly webauthn: JsonObject | null;
}

/**
 * Issues the challenge of a login whose first step passed, for an account with an active factor:
 * the kinds of answer it has (TOTP, passkey, recovery code while some are left), for passkeys the
 * request options over its credentials, 5 minutes to answer.
 */
export class ChallengeIssuing {
  constructor(private readonly deps: ChallengeIssuingDeps) {}

  async issue(subjectId: string, methods: readonly AuthMethod[], request: RequestContext): Promise<IssuedChallenge> {
    const { kind, factors, ceremonies, signInChallenges, tokenKeys, clock } = this.deps;
    const [account, codesLeft] = await Promise.all([
      factors.list(kind, subjectId),
      factors.recoveryCodesLeft(kind, subjectId),
    ]);
    const active = account.filter((factor) => factor.activated !== null);
    const passkeys = active.flatMap((factor) => (factor.webauthn?.credential ? [factor.webauthn.credential] : []));
    const kinds: SecondStepKind[] = [];
    if (active.some((factor) => factor.kind === 'totp')) kinds.push('totp');
    if (passkeys.length > 0) kinds.push('webauthn');
    if (codesLeft > 0) kinds.push('recovery_code');
    const ceremony = passkeys.length > 0 ? await ceremonies.authenticationOptions(passkeys) : null;
    const handle = tokenKeys.generate();
    const now = clock.now();
    const challenge: SignInChallenge = {
      id: challengeDigest(handle),
      owner: kind,
      subjectId,
      kinds,
      webauthnChallenge: ceremony?.challenge ?? null,
      methods,
      created: now,
      expires: addSeconds(now, SECOND_FACTOR_RULES.challenge.seconds),
      failures: 0,
      completed: null,
      clientAddress: request.clientAddress,
      userAgent: request.userAgent,
    };
    await signInChallenges.create(challenge);
    return { handle, kinds, expires: challenge.expires, webauthn: ceremony?.options ?? null };
  }
}
