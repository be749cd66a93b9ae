import type { AuditRecord } from '../audit/audit-event.ts';
import type { NewMail } from '../mail/mail-message.ts';
import type { SubjectKind } from '../shared/identity.ts';
import { token } from '../shared/token.ts';
import type { SealedText } from '../secrets/secret.ts';
import type { Factor, PasskeyCredential } from './factor.ts';

/**
 * Stores second factors and recovery codes. Every single-use check is one atomic compare-and-set
 * in the store, so two requests racing with one code (on any instances) succeed exactly once. A
 * write given an audit record appends it in the same transaction, only when it changed something.
 */
export interface FactorRepository {
  /** Stores a pending factor. */
  create(factor: Factor): Promise<void>;
  findById(id: string): Promise<Factor | null>;
  /** The account's factors, pending ones included, oldest first. */
  list(owner: SubjectKind, subjectId: string): Promise<Factor[]>;
  /** Whether the account has an active factor: what every password login asks. */
  hasActive(owner: SubjectKind, subjectId: string): Promise<boolean>;
  /** The active passkey with this credential id, whoever owns it. */
  findByCredentialId(credentialId: string): Promise<Factor | null>;
  /**
   * Makes a pending factor active, in one transaction with `audit`: a passkey's credential is
   * stored (its registration challenge cleared), a TOTP factor's `totpStep` (the enrolment code's)
   * is stored as its last used step, so that code never signs in, and `recoveryCodeDigests`
   * become the account's recovery codes only when it had no active factor yet: the store alone
   * decides which of two racing verifies is the first. Null when the factor is not pending any
   * more (another verify won, or it was removed) or the credential id is taken.
   */
  activate(id: string, at: Date, activation: FactorActivation, audit?: AuditRecord): Promise<Activated | null>;
  /**
   * The TOTP replay guard: records `step` as the factor's last used step (and `at` as its last
   * use), only if the factor is active and its last step is null or smaller. False otherwise.
   */
  useTotpStep(id: string, step: number, at: Date): Promise<boolean>;
  /** A passkey sign-in: stores the counter it carried and `at` as the last use. */
  usePasskey(id: string, counter: number, at: Date, audit?: AuditRecord): Promise<void>;
  /** Removes one factor; removing the account's last active factor also removes its recovery codes. */
  remove(id: string, audit?: AuditRecord): Promise<boolean>;
  /**
   * Removes every factor and recovery code of the account and ends its sessions, with `audit` in
   * the same transaction whatever it found (the sessions end regardless), and `notice` queued in
   * it only when a factor went. Answers how many factors went.
   */
  removeAll(owner: SubjectKind, subjectId: string, at: Date, audit?: AuditRecord, notice?: NewMail): Promise<number>;
  /** Replaces the account's recovery codes with a new set (digests). */
  replaceRecoveryCodes(
    owner: SubjectKind,
    subjectId: string,
    digests: readonly string[],
    audit?: AuditRecord,
  ): Promise<void>;
  /** Marks one unused recovery code used, atomically; false when it is unknown or used already. */
  useRecoveryCode(
    owner: SubjectKind,
    subjectId: string,
    digest: string,
    at: Date,
    audit?: AuditRecord,
  ): Promise<boolean>;
  recoveryCodesLeft(owner: SubjectKind, subjectId: string): Promise<number>;
  /** Every sealed TOTP secret, for a rotation of the `factor-secret` key to seal again. */
  listSealedSecrets(): Promise<{ id: string; secret: SealedText }[]>;
  /** Replaces a TOTP factor's sealed secret (same plaintext, newer key). */
  reseal(id: string, secret: SealedText): Promise<void>;
}
/** What an activation stores beside the factor's new status. */
export interface FactorActivation {
  readonly credential?: PasskeyCredential;
  readonly totpStep?: number;
  /** The codes of the account's first active factor, stored only if this one is the first. */
  readonly recoveryCodeDigests?: readonly string[];
}

/** A factor made active; `first` when it was the account's first, whose recovery codes were stored. */
export interface Activated {
  readonly first: boolean;
}

export const FactorRepository = token<FactorRepository>('FactorRepository');
