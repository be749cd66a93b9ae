import type { AuditRecord } from '../audit/audit-event.ts';
import type { Factor } from '../factors/factor.ts';
import type { Activated, FactorActivation, FactorRepository } from '../factors/factor.repository.ts';
import type { NewMail } from '../mail/mail-message.ts';
import type { SealedText } from '../secrets/secret.ts';
import type { SessionRepository } from '../sessions/session.repository.ts';
import type { SubjectKind } from '../shared/identity.ts';
import type { InMemoryAuditTrail } from './in-memory-audit-trail.ts';
import type { InMemoryMailQueue } from './in-memory-mail.ts';
import type { DroppedWithAccount } from './dropped-with-account.ts';

const accountKey = (owner: SubjectKind, subjectId: string) => `${owner}:${subjectId}`;
const byCreatedThenId = (a: Factor, b: Factor) =>
  a.created.getTime() - b.created.getTime() || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);

/**
 * Factors and recovery codes in memory. Each check-and-write runs without an `await` in between,
 * which is the atomic compare-and-set the real stores make in one statement.
 */
export class InMemoryFactorRepository implements FactorRepository, DroppedWithAccount {
  private readonly rows = new Map<string, Factor>();
  /** Per account: each recovery code's digest and when it was used (null: unused). */
  private readonly codes = new Map<string, Map<string, Date | null>>();

  constructor(
    private readonly sessions: Pick<SessionRepository, 'revokeSubjectSessions'>,
    private readonly audit: InMemoryAuditTrail,
    private readonly mail: InMemoryMailQueue,
  ) {}

  async create(factor: Factor): Promise<void> {
    this.rows.set(factor.id, structuredClone(factor));
  }

  async findById(id: string): Promise<Factor | null> {
    const row = this.rows.get(id);
    return row ? structuredClone(row) : null;
  }

  async list(owner: SubjectKind, subjectId: string): Promise<Factor[]> {
    return this.of(owner, subjectId).map((row) => structuredClone(row));
  }

  async hasActive(owner: SubjectKind, subjectId: string): Promise<boolean> {
    return this.of(owner, subjectId).some((row) => row.activated !== null);
  }

  async findByCredentialId(credentialId: string): Promise<Factor | null> {
    const row = [...this.rows.values()].find(
      (factor) => factor.activated !== null && factor.webauthn?.credential?.id === credentialId,
    );
    return row ? structuredClone(row) : null;
  }

  async activate(id: string, at: Date, activation: FactorActivation, audit?: AuditRecord): Promise<Activated | null> {
    const { credential, totpStep, recoveryCodeDigests } = activation;
    const row = this.rows.get(id);
    if (!row || row.activated !== null) return null;
    if (credential && [...this.rows.values()].some((factor) => factor.webauthn?.credential?.id === credential.id)) {
      return null;
    }
    const first = !this.of(row.owner, row.subjectId).some((factor) => factor.activated !== null);
    const webauthn = row.webauthn && { challenge: null, credential: credential ?? row.webauthn.credential };
    const totp = row.totp && totpStep !== undefined ? { ...row.totp, lastStep: totpStep } : row.totp;
    const lastUsed = totpStep !== undefined ? at : row.lastUsed;
    this.rows.set(id, { ...row, activated: at, lastUsed, totp, webauthn });
    if (first && recoveryCodeDigests) this.replaceNow(row.owner, row.subjectId, recoveryCodeDigests);
    if (audit) this.audit.appendNow(audit);
    return { first };
  }

  async useTotpStep(id: string, step: number, at: Date): Promise<boolean> {
    const row = this.rows.get(id);
    if (!row?.totp || row.activated === null) return false;
    if (row.totp.lastStep !== null && row.totp.lastStep >= step) return false;
    this.rows.set(id, { ...row, lastUsed: at, totp: { ...row.totp, lastStep: step } });
    return true;
  }

  async usePasskey(id: string, counter: number, at: Date, audit?: AuditRecord): Promise<void> {
    const row = this.rows.get(id);
    const credential = row?.webauthn?.credential;
    if (!row || !credential) return;
    this.rows.set(id, { ...row, lastUsed: at, webauthn: { challenge: null, credential: { ...credential, counter } } });
    if (audit) this.audit.appendNow(audit);
  }

  async remove(id: string, audit?: AuditRecord): Promise<boolean> {
    const row = this.rows.get(id);
    if (!row) return false;
    this.rows.delete(id);
    if (!this.of(row.owner, row.subjectId).some((factor) => factor.activated !== null)) {
      this.codes.delete(accountKey(row.owner, row.subjectId));
    }
    if (audit) this.audit.appendNow(audit);
    return true;
  }

  async removeAll(
    owner: SubjectKind,
    subjectId: string,
    at: Date,
    audit?: AuditRecord,
    notice?: NewMail,
  ): Promise<number> {
    const factors = this.of(owner, subjectId);
    for (const factor of factors) this.rows.delete(factor.id);
    this.codes.delete(accountKey(owner, subjectId));
    if (audit) this.audit.appendNow(audit);
    if (notice && factors.length > 0) this.mail.insertNow(notice);
    await this.sessions.revokeSubjectSessions(owner, subjectId, at);
    return factors.length;
  }

  async replaceRecoveryCodes(
    owner: SubjectKind,
    subjectId: string,
    digests: readonly string[],
    audit?: AuditRecord,
  ): Promise<void> {
    this.replaceNow(owner, subjectId, digests);
    if (audit) this.audit.appendNow(audit);
  }

  async useRecoveryCode(
    owner: SubjectKind,
    subjectId: string,
    digest: string,
    at: Date,
    audit?: AuditRecord,
  ): Promise<boolean> {
    const codes = this.codes.get(accountKey(owner, subjectId));
    if (!codes || codes.get(digest) !== null) return false;
    codes.set(digest, at);
    if (audit) this.audit.appendNow(audit);
    return true;
  }

  async recoveryCodesLeft(owner: SubjectKind, subjectId: string): Promise<number> {
    const codes = this.codes.get(accountKey(owner, subjectId));
    return codes ? [...codes.values()].filter((used) => used === null).length : 0;
  }

  async listSealedSecrets(): Promise<{ id: string; secret: SealedText }[]> {
    return [...this.rows.values()].flatMap((row) => (row.totp ? [{ id: row.id, secret: { ...row.totp.secret } }] : []));
  }

  async reseal(id: string, secret: SealedText): Promise<void> {
    const row = this.rows.get(id);
    if (row?.totp) this.rows.set(id, { ...row, totp: { ...row.totp, secret } });
  }

  /** Whether the account has an active passkey, at once: a way in of its own. */
  hasActivePasskeyNow(owner: SubjectKind, subjectId: string): boolean {
    return this.of(owner, subjectId).some((row) => row.activated !== null && row.kind === 'webauthn');
  }

  dropAccount(owner: SubjectKind, subjectId: string): void {
    for (const factor of this.of(owner, subjectId)) this.rows.delete(factor.id);
    this.codes.delete(accountKey(owner, subjectId));
  }

  private of(owner: SubjectKind, subjectId: string): Factor[] {
    return [...this.rows.values()]
      .filter((row) => row.owner === owner && row.subjectId === subjectId)
      .sort(byCreatedThenId);
  }

  private replaceNow(owner: SubjectKind, subjectId: string, digests: readonly string[]): void {
    this.codes.set(accountKey(owner, subjectId), new Map(digests.map((digest) => [digest, null])));
  }
}
