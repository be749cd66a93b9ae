import { auditRecord, initiatorOf } from '../audit/audit-records.ts';
import { NO_REQUEST, type AuditChanges, type Initiator, type RequestContext } from '../audit/audit-event.ts';
import { refuseWhileImpersonated } from '../impersonation/impersonation-rules.ts';
import type { AccountMail } from '../mail/account-mail.ts';
import type { SecretBox } from '../secrets/secret-box.ts';
import type { PrincipalSource } from '../sessions/principal.ts';
import type { SessionRepository } from '../sessions/session.repository.ts';
import type { SecondStepLock } from '../sign-in/second-step-lock.ts';
import type { Clock } from '../shared/clock.ts';
import {
  FactorAlreadyActiveError,
  InvalidSecondFactorError,
  NotFoundError,
  SecondFactorRequiredError,
  ValidationError,
} from '../shared/errors.ts';
import type { IdGenerator } from '../shared/id-generator.ts';
import type { Identity, SubjectKind } from '../shared/identity.ts';
import { isJsonObject, type JsonObject } from '../shared/json.ts';
import { FACTOR_KINDS, isActive, type AuthMethod, type Factor, type FactorKind } from './factor.ts';
import type { FactorActivation, FactorRepository } from './factor.repository.ts';
import type { OneTimeCodes } from './one-time-codes.ts';
import type { PasskeyCeremonies } from './passkey-ceremonies.ts';
import { recoveryCodeDigest } from './recovery-codes.ts';
import type { SecondFactorProofs } from './second-factor-proofs.ts';
import { SECOND_FACTOR_RULES } from './second-factor-rules.ts';

export interface FactorServiceDeps {
  factors: FactorRepository;
  sessions: SessionRepository;
  /** The admins and the users, to name an account in its authenticator app and to mail it. */
  principals: Record<SubjectKind, PrincipalSource>;
  codes: OneTimeCodes;
  ceremonies: PasskeyCeremonies;
  /**
   * The key ring: TOTP secrets are sealed under its `factor-secret` purpose (the factor's id as
   * context), and recovery codes stored as HMACs under it.
   */
  box: SecretBox;
  proofs: SecondFactorProofs;
  /** The account's second-step lock: a step-up proof is guessed at as a login's second step is. */
  lock: SecondStepLock;
  accountMail: AccountMail;
  clock: Clock;
  ids: IdGenerator;
  /** The issuer an authenticator app shows beside the account (WEBAUTHN_RP_NAME). */
  issuer: string;
}

/** A new factor, with what its owner needs once to finish enrolling it. */
export interface Enrolment {
  readonly factor: Factor;
  readonly totp: { readonly secret: string; readonly uri: string; readonly qrSvg: string } | null;
  readonly webauthn: JsonObject | null;
}

/** A factor that became active, and the recovery codes when it was the account's first. */
export interface Activation {
  readonly factor: Factor;
  readonly recoveryCodes: readonly string[] | null;
}

/** What proves a second factor inside a session: a code (TOTP or recovery) or a passkey assertion. */
export interface StepUpProof {
  readonly code?: unknown;
  readonly credential?: unknown;
}

const { maxFactors, pendingSeconds } = SECOND_FACTOR_RULES.enrolment;
const SECOND_FACTORS: readonly AuthMethod[] = ['otp', 'hwk', 'swk'];

/**
 * The second factors of an account, by their owner (enrol, verify, list, remove, renew the
 * recovery codes) and by an admin (list and reset a user's). Once the account has an active
 * factor, enrolling another, removing an active one or renewing the codes needs a step-up: a
 * session whose login's second step is recent, or a proof sent along; else a password (or a
 * session from before the first factor) would add its own factor and walk around the second.
 */
export class FactorService {
  constructor(private readonly deps: FactorServiceDeps) {}

  /** The account's factors, oldest first, and how many recovery codes it has left. */
  async list(owner: SubjectKind, subjectId: string): Promise<{ factors: Factor[]; recoveryCodesLeft: number }> {
    const { factors } = this.deps;
    const [listed, recoveryCodesLeft] = await Promise.all([
      factors.list(owner, subjectId),
      factors.recoveryCodesLeft(owner, subjectId),
    ]);
    return { factors: listed, recoveryCodesLeft };
  }

  /** Whether the account has an active factor (ADMIN_MFA=required asks it of every admin request). */
  hasActive(owner: SubjectKind, subjectId: string): Promise<boolean> {
    return this.deps.factors.hasActive(owner, subjectId);
  }

  /**
   * Starts enrolling a factor of `kind`: it stays pending until verify(). An account with an
   * active factor needs a step-up for it; one with none enrols freely.
   */
  async enrol(
    who: Identity,
    kind: unknown,
    proof: StepUpProof = {},
    request: RequestContext = NO_REQUEST,
  ): Promise<Enrolment> {
    const { factors, codes, ceremonies, box, clock, ids, issuer } = this.deps;
    refuseWhileImpersonated(who, 'second factors');
    if (typeof kind !== 'string' || !(FACTOR_KINDS as readonly string[]).includes(kind)) {
      throw new ValidationError([
        { source: { pointer: '/data/attributes/kind' }, detail: `kind must be one of ${FACTOR_KINDS.join(', ')}` },
      ]);
    }
    const account = await this.accountOf(who.kind, who.subjectId);
    const existing = await factors.list(who.kind, who.subjectId);
    if (existing.some(isActive)) await this.stepUp(who, proof, request);
    // A pending factor past its window can never become active: it no longer takes a place.
    const now = clock.now();
    const held = existing.filter((factor) => isActive(factor) || !isStale(factor, now));
    if (held.length >= maxFactors) {
      throw new ValidationError([
        { source: { pointer: '/data' }, detail: `an account holds at most ${maxFactors} factors; remove one first` },
      ]);
    }
    const id = ids.next();
    const base = {
      id,
      owner: who.kind,
      subjectId: who.subjectId,
      created: now,
      activated: null,
      lastUsed: null,
    };
    if ((kind as FactorKind) === 'totp') {
      const secret = codes.newSecret();
      const factor: Factor = {
        ...base,
        kind: 'totp',
        totp: { secret: await box.seal('factor-secret', secret, id), lastStep: null },
        webauthn: null,
      };
      await factors.create(factor);
      const uri = codes.uri(secret, account.email, issuer);
      return { factor, totp: { secret, uri, qrSvg: await codes.qrSvg(uri) }, webauthn: null };
    }
    const exclude = existing.flatMap((factor) => (factor.webauthn?.credential ? [factor.webauthn.credential] : []));
    const { options, challenge } = await ceremonies.registrationOptions({
      userId: who.subjectId,
      userName: account.email,
      displayName: account.name || account.email,
      exclude,
    });
    const factor: Factor = { ...base, kind: 'webauthn', totp: null, webauthn: { challenge, credential: null } };
    await factors.create(factor);
    return { factor, totp: null, webauthn: options };
  }

  /**
   * Proves a pending factor works (a current TOTP code, or the passkey's registration answering
   * the stored challenge) and activates it. The TOTP step is stored as used by the activation
   * itself, so the enrolment code never signs in. The account's first active factor (as the store
   * decides, whatever races) comes with its recovery codes.
   */
  async verify(
    who: Identity,
    factorId: string,
    proof: StepUpProof,
    request: RequestContext = NO_REQUEST,
  ): Promise<Activation> {
    const { factors, codes, ceremonies, box, clock, ids } = this.deps;
    refuseWhileImpersonated(who, 'second factors');
    const factor = await this.ownFactor(who, factorId);
    if (isActive(factor)) throw new FactorAlreadyActiveError();
    const now = clock.now();
    if (isStale(factor, now)) throw new InvalidSecondFactorError();
    // Enrolled freely before another factor became active: it was never stepped up, so its
    // verify is (by the session; the body's code is the new factor's own).
    const overtaken = (await factors.list(who.kind, who.subjectId)).some(
      (other) => other.activated !== null && other.activated.getTime() > factor.created.getTime(),
    );
    if (overtaken) await this.stepUp(who, {}, request);
    let activation: FactorActivation;
    if (factor.totp) {
      if (typeof proof.code !== 'string') throw missing('code');
      const secret = await box.open('factor-secret', factor.totp.secret, factor.id);
      const totpStep = codes.stepOf(secret, proof.code.replace(/\s/g, ''), now);
      if (totpStep === null) throw new InvalidSecondFactorError();
      activation = { totpStep };
    } else {
      const challenge = factor.webauthn?.challenge;
      if (!isJsonObject(proof.credential)) throw missing('credential');
      const credential = challenge ? await ceremonies.verifyRegistration(proof.credential, challenge) : null;
      if (!credential) throw new InvalidSecondFactorError();
      activation = { credential };
    }
    // Offered to every activation; the store keeps them only for the account's first active factor.
    const recoveryCodes = this.newRecoveryCodes();
    const audit = auditRecord(
      ids.next(),
      now,
      initiatorOf(who, request),
      'factor.activated',
      factorTarget(factor.id),
      ownerOf(who),
    );
    const activated = await factors.activate(
      factor.id,
      now,
      { ...activation, recoveryCodeDigests: await this.digestsOf(recoveryCodes) },
      audit,
    );
    if (!activated) {
      // Another verify won, the factor went, or the passkey is registered already.
      const current = await factors.findById(factor.id);
      if (current && isActive(current)) throw new FactorAlreadyActiveError();
      throw new InvalidSecondFactorError();
    }
    return {
      factor: (await factors.findById(factor.id)) ?? factor,
      recoveryCodes: activated.first ? recoveryCodes : null,
    };
  }

  /**
   * Removes one of the account's factors. An active one needs a step-up; a pending one, or any
   * while the account has no active factor, does not: there is no second factor to prove yet.
   */
  async remove(who: Identity, factorId: string, proof: StepUpProof, request: RequestContext = NO_REQUEST) {
    const { factors, clock, ids } = this.deps;
    refuseWhileImpersonated(who, 'second factors');
    const factor = await this.ownFactor(who, factorId);
    if (isActive(factor)) await this.stepUp(who, proof, request);
    const audit = auditRecord(
      ids.next(),
      clock.now(),
      initiatorOf(who, request),
      'factor.removed',
      factorTarget(factor.id),
      ownerOf(who),
    );
    if (!(await factors.remove(factor.id, audit))) throw new NotFoundError('factor');
  }

  /** Replaces the account's recovery codes with a new set, after a step-up; answers the codes, shown once. */
  async regenerateRecoveryCodes(
    who: Identity,
    proof: StepUpProof,
    request: RequestContext = NO_REQUEST,
  ): Promise<readonly string[]> {
    const { factors, clock, ids } = this.deps;
    refuseWhileImpersonated(who, 'recovery codes');
    await this.stepUp(who, proof, request);
    // Codes stand in for a factor: an account with none has nothing for them to replace.
    if (!(await factors.hasActive(who.kind, who.subjectId))) throw new SecondFactorRequiredError();
    const codes = this.newRecoveryCodes();
    const target = { type: who.kind === 'admin' ? 'admins' : 'users', id: who.subjectId };
    const audit = auditRecord(ids.next(), clock.now(), initiatorOf(who, request), 'recovery_codes.regenerated', target);
    await factors.replaceRecoveryCodes(who.kind, who.subjectId, await this.digestsOf(codes), audit);
    return codes;
  }

  /** An admin's view of a user's factors: 404 for an unknown user. */
  async listOfUser(userId: string): Promise<{ factors: Factor[]; recoveryCodesLeft: number }> {
    await this.accountOf('user', userId);
    return this.list('user', userId);
  }

  /**
   * An admin removes every factor and recovery code of a user and ends the user's sessions (a
   * lost phone). The user is mailed a notice, queued in the removal's transaction; with no factor
   * to remove, no notice and no audit event (a repeated reset is not a second one).
   */
  async resetOfUser(userId: string, initiator: Initiator): Promise<void> {
    const { factors, accountMail, clock, ids } = this.deps;
    const user = await this.accountOf('user', userId);
    const now = clock.now();
    const audit = auditRecord(ids.next(), now, initiator, 'factors.reset', { type: 'users', id: userId });
    const hasFactors = (await factors.list('user', userId)).length > 0;
    const compose = hasFactors ? await accountMail.admit('factors_reset', user.email) : null;
    const notice = compose ? await compose({ email: user.email }) : undefined;
    await factors.removeAll('user', userId, now, hasFactors ? audit : undefined, notice);
  }

  /**
   * Seals every TOTP secret again under the current `factor-secret` key (after a rotation), so
   * the older keys are no longer needed. Answers how many; `progress` is told after each.
   */
  async resealSecrets(progress: (done: number, total: number) => void = () => {}): Promise<number> {
    const { factors, box } = this.deps;
    const sealed = await factors.listSealedSecrets();
    let done = 0;
    for (const { id, secret } of sealed) {
      await factors.reseal(id, await box.seal('factor-secret', await box.open('factor-secret', secret, id), id));
      done += 1;
      progress(done, sealed.length);
    }
    return done;
  }

  /**
   * An act that a second factor must confirm each time (an admin acting as a user), by an account
   * with an active factor: a code or passkey assertion of the account sent along, counted by its
   * second-step lock as a step-up's is. A recent sign-in with a second factor is not enough here.
   * An account without an active factor has nothing to prove.
   */
  async confirm(who: Identity, proof: StepUpProof, request: RequestContext = NO_REQUEST): Promise<void> {
    if (!(await this.deps.factors.hasActive(who.kind, who.subjectId))) return;
    if (!sentAlong(proof)) throw new SecondFactorRequiredError();
    await this.proveAlong(who, proof, this.deps.clock.now(), request);
  }

  /**
   * A change to the factors needs a second factor given recently: the session's login had a
   * second step within SECOND_FACTOR_RULES.stepUpSeconds, or the request carries a code or a
   * passkey assertion (over a challenge of the passkey options) of this account. A proof sent
   * along is counted by the account's second-step lock, as a login's second step is.
   */
  private async stepUp(who: Identity, proof: StepUpProof, request: RequestContext): Promise<void> {
    const { sessions, clock } = this.deps;
    const now = clock.now();
    if (sentAlong(proof)) {
      await this.proveAlong(who, proof, now, request);
      return;
    }
    const session = await sessions.findSession(who.sessionId);
    const since = session ? now.getTime() - session.created.getTime() : Number.POSITIVE_INFINITY;
    const proved = session?.amr.some((method) => SECOND_FACTORS.includes(method)) ?? false;
    if (!proved || since > SECOND_FACTOR_RULES.stepUpSeconds * 1000) throw new SecondFactorRequiredError();
  }

  private async proveAlong(who: Identity, proof: StepUpProof, now: Date, request: RequestContext): Promise<void> {
    const { proofs, lock } = this.deps;
    const attempt = await lock.enter(who.kind, who.subjectId);
    const proved =
      typeof proof.code === 'string'
        ? (await proofs.proveCode(who.kind, who.subjectId, proof.code, now, request)) !== null
        : isJsonObject(proof.credential) &&
          (await proofs.provePasskeyChallenge(who.kind, who.subjectId, proof.credential, now, request)) !== null;
    if (!proved) {
      await lock.failed(who.kind, who.subjectId, attempt, request);
      throw new InvalidSecondFactorError();
    }
    await lock.succeeded(who.kind, who.subjectId, attempt);
  }

  private async ownFactor(who: Identity, factorId: string): Promise<Factor> {
    const factor = await this.deps.factors.findById(factorId);
    // Another account's factor is as unknown as one that never was.
    if (!factor || factor.owner !== who.kind || factor.subjectId !== who.subjectId) throw new NotFoundError('factor');
    return factor;
  }

  private async accountOf(kind: SubjectKind, id: string) {
    const account = await this.deps.principals[kind].findById(id);
    if (!account) throw new NotFoundError(kind);
    return account;
  }

  private digestsOf(codes: readonly string[]): Promise<string[]> {
    return Promise.all(codes.map((code) => recoveryCodeDigest(this.deps.box, code)));
  }

  private newRecoveryCodes(): string[] {
    return Array.from({ length: SECOND_FACTOR_RULES.recoveryCodes.count }, () => this.deps.codes.newRecoveryCode());
  }
}

const factorTarget = (id: string) => ({ type: 'factors', id });

/**
 * Whose factor it is, beside the factor's own target (`user` or `admin`, unchanged): what a
 * webhook's `data.user` is read from, so a receiver knows whose factor changed.
 */
const ownerOf = (who: Identity): AuditChanges => ({ [who.kind]: { before: who.subjectId, after: who.subjectId } });

/** Whether a proof came with the request (one of a code or a credential; both is a bad request). */
function sentAlong(proof: StepUpProof): boolean {
  if (proof.code !== undefined && proof.credential !== undefined) {
    throw new ValidationError([{ source: { pointer: '' }, detail: 'give either a code or a credential' }]);
  }
  return typeof proof.code === 'string' || isJsonObject(proof.credential);
}
/** A pending factor whose verification window has passed. */
const isStale = (factor: Factor, now: Date) =>
  !isActive(factor) && now.getTime() - factor.created.getTime() > pendingSeconds * 1000;
const missing = (name: string) =>
  new ValidationError([{ source: { pointer: `/${name}` }, detail: `${name} is required to verify this factor` }]);
