import { auditRecord } from '../audit/audit-records.ts';
import { NO_REQUEST, type AuditAction, type AuditRecord, type RequestContext } from '../audit/audit-event.ts';
import type { SecretBox } from '../secrets/secret-box.ts';
import type { IdGenerator } from '../shared/id-generator.ts';
import type { SubjectKind } from '../shared/identity.ts';
import type { JsonObject } from '../shared/json.ts';
import type { Logger } from '../shared/logger.ts';
import { challengeDigest } from '../sign-in/sign-in-challenge.ts';
import type { SignInChallengeRepository } from '../sign-in/sign-in-challenge.repository.ts';
import { assertionChallengeOf } from './assertion-challenge.ts';
import type { AuthMethod, Factor } from './factor.ts';
import type { FactorRepository } from './factor.repository.ts';
import type { OneTimeCodes } from './one-time-codes.ts';
import type { PasskeyCeremonies } from './passkey-ceremonies.ts';
import { recoveryCodeLookups } from './recovery-codes.ts';
import { SECOND_FACTOR_RULES } from './second-factor-rules.ts';

export interface SecondFactorProofsDeps {
  factors: FactorRepository;
  codes: OneTimeCodes;
  ceremonies: PasskeyCeremonies;
  box: SecretBox;
  signInChallenges: SignInChallengeRepository;
  ids: IdGenerator;
  logger: Logger;
}

/** A passkey assertion that verified: what it proves, whose it is, and whether the user was verified. */
export interface CredentialProof {
  readonly method: 'hwk' | 'swk';
  readonly subjectId: string;
  readonly userVerified: boolean;
}

const TOTP_CODE = new RegExp(`^\\d{${SECOND_FACTOR_RULES.totp.digits}}$`);
/** Spaces and dashes a person may type into a code (`ABCD-EFGH-IJKL`, `123 456`). */
const SEPARATORS = /[\s-]/g;
const ACCOUNT_TYPE: Record<SubjectKind, string> = { admin: 'admins', user: 'users' };

/**
 * The one place a second factor is checked: a TOTP code, a recovery code or a passkey assertion,
 * for the login's second step, the passwordless passkey sign-in and the step-up of factor
 * changes alike. Each proof is used up by an atomic compare-and-set in the store, so a code or an
 * assertion sent twice at once proves exactly once. A refusal is null, never an error: the caller
 * decides what a wrong answer costs.
 */
export class SecondFactorProofs {
  constructor(private readonly deps: SecondFactorProofsDeps) {}

  /**
   * A 6-digit code is tried against each active TOTP factor of the account, and accepted only for
   * a time step after the factor's last used one; anything else is tried as one of its unused
   * recovery codes. Answers `otp`, or null.
   */
  async proveCode(
    owner: SubjectKind,
    subjectId: string,
    code: string,
    at: Date,
    request: RequestContext = NO_REQUEST,
  ): Promise<AuthMethod | null> {
    const typed = code.replace(SEPARATORS, '');
    if (TOTP_CODE.test(typed)) return (await this.proveTotp(owner, subjectId, typed, at)) ? 'otp' : null;
    if (typed.length === 0 || typed.length > 64) return null;
    const audit = this.record(owner, subjectId, 'recovery_code.used', request, at);
    // Under each factor-secret key still held: codes made before a rotation keep working.
    for (const digest of await recoveryCodeLookups(this.deps.box, typed)) {
      if (await this.deps.factors.useRecoveryCode(owner, subjectId, digest, at, audit)) return 'otp';
    }
    return null;
  }

  private async proveTotp(owner: SubjectKind, subjectId: string, code: string, at: Date): Promise<boolean> {
    const { factors, codes } = this.deps;
    const totps = (await factors.list(owner, subjectId)).filter((factor) => factor.activated !== null && factor.totp);
    for (const factor of totps) {
      const secret = await this.secretOf(factor);
      const step = secret === null ? null : codes.stepOf(secret, code, at);
      // The step, not the code, is what is used up: a code accepted once is refused for good.
      if (step !== null) return factors.useTotpStep(factor.id, step, at);
    }
    return false;
  }

  /** The factor's TOTP secret, or null (logged) when the key ring cannot open it. */
  private async secretOf(factor: Factor): Promise<string | null> {
    if (!factor.totp) return null;
    try {
      return await this.deps.box.open('factor-secret', factor.totp.secret, factor.id);
    } catch {
      this.deps.logger.error('A TOTP secret did not open (its key is missing or the record was altered)', {
        factorId: factor.id,
        keyId: factor.totp.secret.keyId,
      });
      return null;
    }
  }

  /**
   * A passkey assertion over `expectedChallenge`, by an active passkey of an `owner` account (of
   * `subjectId`, when given). A counter that is not above the stored one (0, which synced passkeys
   * always send, excepted) is logged and audited as a possible clone, not refused.
   */
  async proveCredential(
    owner: SubjectKind,
    subjectId: string | null,
    response: JsonObject,
    expectedChallenge: string,
    at: Date,
    request: RequestContext = NO_REQUEST,
  ): Promise<CredentialProof | null> {
    const { factors, ceremonies, logger } = this.deps;
    const credentialId = ceremonies.credentialIdOf(response);
    const factor = credentialId === null ? null : await factors.findByCredentialId(credentialId);
    const credential = factor?.webauthn?.credential;
    if (!factor || !credential || factor.activated === null || factor.owner !== owner) return null;
    if (subjectId !== null && factor.subjectId !== subjectId) return null;
    const verified = await ceremonies.verifyAuthentication(response, expectedChallenge, credential);
    if (!verified) return null;
    let audit: AuditRecord | undefined;
    if (verified.counter !== 0 && verified.counter <= credential.counter) {
      logger.warn('A passkey signed with a counter that did not advance', {
        factorId: factor.id,
        stored: credential.counter,
        received: verified.counter,
      });
      audit = this.record(owner, factor.subjectId, 'passkey.counter_regressed', request, at, factor.id);
    }
    // The highest counter seen stays stored, so a clone that keeps signing keeps being noticed.
    await factors.usePasskey(factor.id, Math.max(verified.counter, credential.counter), at, audit);
    return {
      method: credential.backedUp ? 'swk' : 'hwk',
      subjectId: factor.subjectId,
      userVerified: verified.userVerified,
    };
  }

  /**
   * A passkey assertion over a challenge of the passkey options (`POST /v1/login/passkey/options`
   * or its admin twin), which the assertion names in its client data: the challenge is used up
   * first, whatever the outcome, so an assertion is accepted once. For the passwordless sign-in
   * (`subjectId` null) and for a step-up inside a session (the session's account).
   */
  async provePasskeyChallenge(
    owner: SubjectKind,
    subjectId: string | null,
    response: JsonObject,
    at: Date,
    request: RequestContext = NO_REQUEST,
  ): Promise<CredentialProof | null> {
    const { signInChallenges } = this.deps;
    const named = assertionChallengeOf(response);
    if (named === null) return null;
    const id = challengeDigest(named);
    const challenge = await signInChallenges.find(id);
    if (!challenge || challenge.owner !== owner || challenge.subjectId !== null || !challenge.webauthnChallenge) {
      return null;
    }
    if (!(await signInChallenges.complete(id, at, SECOND_FACTOR_RULES.challenge.maxFailures))) return null;
    return this.proveCredential(owner, subjectId, response, challenge.webauthnChallenge, at, request);
  }

  private record(
    owner: SubjectKind,
    subjectId: string,
    action: AuditAction,
    request: RequestContext,
    at: Date,
    factorId?: string,
  ): AuditRecord {
    const target = factorId ? { type: 'factors', id: factorId } : { type: ACCOUNT_TYPE[owner], id: subjectId };
    return auditRecord(this.deps.ids.next(), at, { actor: { type: owner, id: subjectId }, request }, action, target);
  }
}
