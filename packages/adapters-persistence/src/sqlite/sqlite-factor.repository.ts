import { and, asc, count, eq, isNotNull, isNull, ne, sql, type Placeholder } from 'drizzle-orm';
import type {
  Activated,
  AuditRecord,
  Factor,
  FactorActivation,
  FactorRepository,
  NewMail,
  SealedText,
  SubjectKind,
} from '@uas/domain';
import { accountColumns, accountOf, ofAccount } from '../shared/account-columns';
import { isCredentialIdTaken } from '../shared/driver-errors';
import { activationColumns, factorOf, factorRow, totpStepUsable } from '../shared/factor-rows';
import { appendAuditEvent, writeWithAudit } from './sqlite-audit-trail';
import type { SqliteDb } from './sqlite-db';
import { insertMail } from './sqlite-mail-queue';
import { endSubjectSessions } from './sqlite-subject-sessions';
import { factors, recoveryCodes } from './sqlite-schema';
import { preparedOnUse } from './prepared-on-use';
import { unsyncedWrite } from './sqlite-unsynced-write';

// better-sqlite3 runs a transaction synchronously: its callbacks must never await. Every write
// runs under the write lock (IMMEDIATE, or one statement), so each check-and-write is atomic
// across connections and processes.
export class SqliteFactorRepository implements FactorRepository {
  // Every password login asks it.
  private readonly activeOf = preparedOnUse(() => ({
    user: selectActiveFactor(this.db, 'user', sql.placeholder('subjectId')).prepare(),
    admin: selectActiveFactor(this.db, 'admin', sql.placeholder('subjectId')).prepare(),
  }));

  // Every second step lists the account's factors and uses up a TOTP step.
  private readonly listOf = preparedOnUse(() => ({
    user: this.selectListOf('user').prepare(),
    admin: this.selectListOf('admin').prepare(),
  }));
  private readonly totpStepUse = preparedOnUse(() =>
    this.db
      .update(factors)
      .set({ totpLastStep: sql`${sql.placeholder('step')}`, lastUsed: sql`${sql.placeholder('at')}` })
      .where(totpStepUsable(factors, sql.placeholder('id'), sql.placeholder('step')))
      .prepare(),
  );

  constructor(private readonly db: SqliteDb) {}

  private selectListOf(owner: SubjectKind) {
    return this.db
      .select()
      .from(factors)
      .where(ofAccount(factors, owner, sql.placeholder('subjectId')))
      .orderBy(asc(factors.created), asc(factors.id));
  }

  async create(factor: Factor): Promise<void> {
    this.db.insert(factors).values(factorRow(factor)).run();
  }

  async findById(id: string): Promise<Factor | null> {
    const row = this.db.select().from(factors).where(eq(factors.id, id)).get();
    return row ? factorOf(row) : null;
  }

  async list(owner: SubjectKind, subjectId: string): Promise<Factor[]> {
    return this.listOf()[owner].all({ subjectId }).map(factorOf);
  }

  async hasActive(owner: SubjectKind, subjectId: string): Promise<boolean> {
    return this.activeOf()[owner].get({ subjectId }) !== undefined;
  }

  async findByCredentialId(credentialId: string): Promise<Factor | null> {
    const row = this.db
      .select()
      .from(factors)
      .where(and(eq(factors.credentialId, credentialId), isNotNull(factors.activated)))
      .get();
    return row ? factorOf(row) : null;
  }

  async activate(id: string, at: Date, activation: FactorActivation, audit?: AuditRecord): Promise<Activated | null> {
    try {
      return this.db.transaction(
        (tx) => {
          const activated = tx
            .update(factors)
            .set(activationColumns(at, activation))
            .where(and(eq(factors.id, id), isNull(factors.activated)))
            .returning({ userId: factors.userId, adminId: factors.adminId })
            .get();
          if (!activated) return null;
          const { owner, subjectId } = accountOf(activated);
          // Under the write lock: of two factors verified at once, only one finds no other active.
          const first = !tx
            .select({ id: factors.id })
            .from(factors)
            .where(and(ofAccount(factors, owner, subjectId), isNotNull(factors.activated), ne(factors.id, id)))
            .get();
          if (first && activation.recoveryCodeDigests)
            replaceCodes(tx, owner, subjectId, activation.recoveryCodeDigests);
          if (audit) appendAuditEvent(tx, audit);
          return { first };
        },
        { behavior: 'immediate' },
      );
    } catch (error) {
      if (isCredentialIdTaken(error)) return null;
      throw error;
    }
  }

  async useTotpStep(id: string, step: number, at: Date): Promise<boolean> {
    // Times go as epoch milliseconds, as stored: a placeholder's value reaches the driver as it is.
    // Not flushed on its own (see unsyncedWrite): what the step proves (a session, a factor
    // change) is a FULL commit after it, which flushes it too; a power cut before that can only
    // undo a use that granted nothing.
    return unsyncedWrite(this.db, () => this.totpStepUse().run({ id, step, at: at.getTime() }).changes > 0);
  }

  async usePasskey(id: string, counter: number, at: Date, audit?: AuditRecord): Promise<void> {
    // Not flushed on its own, as a TOTP step's use: what the assertion proves is committed after it.
    unsyncedWrite(this.db, () => this.storeCounter(id, counter, at, audit));
  }

  private storeCounter(id: string, counter: number, at: Date, audit?: AuditRecord): void {
    writeWithAudit(
      this.db,
      audit,
      (tx) =>
        tx
          .update(factors)
          .set({ credentialCounter: counter, lastUsed: at })
          .where(and(eq(factors.id, id), isNotNull(factors.credentialId)))
          .run().changes > 0,
    );
  }

  async remove(id: string, audit?: AuditRecord): Promise<boolean> {
    return this.db.transaction(
      (tx) => {
        const removed = tx
          .delete(factors)
          .where(eq(factors.id, id))
          .returning({ userId: factors.userId, adminId: factors.adminId })
          .get();
        if (!removed) return false;
        const { owner, subjectId } = accountOf(removed);
        // The codes stand in for a factor: with no active factor left they stand in for nothing.
        const stillActive = tx
          .select({ id: factors.id })
          .from(factors)
          .where(and(ofAccount(factors, owner, subjectId), isNotNull(factors.activated)))
          .get();
        if (!stillActive)
          tx.delete(recoveryCodes)
            .where(ofAccount(recoveryCodes, owner, subjectId))
            .run();
        if (audit) appendAuditEvent(tx, audit);
        return true;
      },
      { behavior: 'immediate' },
    );
  }

  async removeAll(
    owner: SubjectKind,
    subjectId: string,
    at: Date,
    audit?: AuditRecord,
    notice?: NewMail,
  ): Promise<number> {
    return this.db.transaction(
      (tx) => {
        const removed = tx
          .delete(factors)
          .where(ofAccount(factors, owner, subjectId))
          .run().changes;
        tx.delete(recoveryCodes)
          .where(ofAccount(recoveryCodes, owner, subjectId))
          .run();
        endSubjectSessions(tx, owner, subjectId, at);
        if (audit) appendAuditEvent(tx, audit);
        if (notice && removed > 0) insertMail(tx, notice);
        return removed;
      },
      { behavior: 'immediate' },
    );
  }

  async replaceRecoveryCodes(
    owner: SubjectKind,
    subjectId: string,
    digests: readonly string[],
    audit?: AuditRecord,
  ): Promise<void> {
    this.db.transaction(
      (tx) => {
        replaceCodes(tx, owner, subjectId, digests);
        if (audit) appendAuditEvent(tx, audit);
      },
      { behavior: 'immediate' },
    );
  }

  async useRecoveryCode(
    owner: SubjectKind,
    subjectId: string,
    digest: string,
    at: Date,
    audit?: AuditRecord,
  ): Promise<boolean> {
    return writeWithAudit(this.db, audit, (tx) => useCode(tx, owner, subjectId, digest, at).run().changes > 0);
  }

  async recoveryCodesLeft(owner: SubjectKind, subjectId: string): Promise<number> {
    const [left] = this.db
      .select({ n: count() })
      .from(recoveryCodes)
      .where(and(ofAccount(recoveryCodes, owner, subjectId), isNull(recoveryCodes.used)))
      .all();
    return left?.n ?? 0;
  }

  async listSealedSecrets(): Promise<{ id: string; secret: SealedText }[]> {
    return this.db
      .select({ id: factors.id, keyId: factors.totpKeyId, ciphertext: factors.totpCiphertext })
      .from(factors)
      .where(eq(factors.kind, 'totp'))
      .all()
      .map(({ id, keyId, ciphertext }) => ({ id, secret: { keyId: keyId!, ciphertext: ciphertext! } }));
  }

  async reseal(id: string, secret: SealedText): Promise<void> {
    this.db
      .update(factors)
      .set({ totpKeyId: secret.keyId, totpCiphertext: secret.ciphertext })
      .where(and(eq(factors.id, id), eq(factors.kind, 'totp')))
      .run();
  }
}

/** One active factor of the account: what every password login asks. Exported for the query plan tests. */
export function selectActiveFactor(db: SqliteDb, owner: SubjectKind, subjectId: string | Placeholder) {
  return db
    .select({ id: factors.id })
    .from(factors)
    .where(and(ofAccount(factors, owner, subjectId), isNotNull(factors.activated)))
    .limit(1);
}

/** Marks the account's unused code `digest` used: the whole check and use. Exported for the query plan tests. */
export function useCode(db: SqliteDb, owner: SubjectKind, subjectId: string, digest: string, at: Date) {
  return db
    .update(recoveryCodes)
    .set({ used: at })
    .where(
      and(ofAccount(recoveryCodes, owner, subjectId), eq(recoveryCodes.digest, digest), isNull(recoveryCodes.used)),
    );
}

/** Replaces the account's recovery codes with `digests`, inside the caller's transaction. */
function replaceCodes(tx: SqliteDb, owner: SubjectKind, subjectId: string, digests: readonly string[]): void {
  tx.delete(recoveryCodes)
    .where(ofAccount(recoveryCodes, owner, subjectId))
    .run();
  if (digests.length === 0) return;
  const account = accountColumns(owner, subjectId);
  tx.insert(recoveryCodes)
    .values(digests.map((digest) => ({ ...account, digest, used: null })))
    .run();
}
