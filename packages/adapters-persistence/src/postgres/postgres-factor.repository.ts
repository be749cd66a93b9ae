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
import { appendAuditEvent, writeWithAudit } from './postgres-audit-trail';
import type { PostgresDb, PostgresTx } from './postgres-db';
import { insertMail } from './postgres-mail-queue';
import { endSubjectSessions } from './postgres-subject-sessions';
import { admins, factors, recoveryCodes, users } from './postgres-schema';

/**
 * The single-use checks are one UPDATE each (a racing one waits for the row and re-checks it). A
 * change to what an account has as a whole (its set of codes, its last active factor) first locks
 * the account's row, so such changes take turns and never act on a set another is replacing.
 */
export class PostgresFactorRepository implements FactorRepository {
  // Every password login asks it.
  private readonly activeOf;

  constructor(private readonly db: PostgresDb) {
    const statement = (owner: SubjectKind) =>
      selectActiveFactor(db, owner, sql.placeholder('subjectId')).prepare(`factor_active_${owner}`);
    this.activeOf = { user: statement('user'), admin: statement('admin') };
  }

  async create(factor: Factor): Promise<void> {
    await this.db.insert(factors).values(factorRow(factor));
  }

  async findById(id: string): Promise<Factor | null> {
    const [row] = await this.db.select().from(factors).where(eq(factors.id, id));
    return row ? factorOf(row) : null;
  }

  async list(owner: SubjectKind, subjectId: string): Promise<Factor[]> {
    const rows = await this.db
      .select()
      .from(factors)
      .where(ofAccount(factors, owner, subjectId))
      .orderBy(asc(factors.created), asc(factors.id));
    return rows.map(factorOf);
  }

  async hasActive(owner: SubjectKind, subjectId: string): Promise<boolean> {
    return (await this.activeOf[owner].execute({ subjectId })).length > 0;
  }

  async findByCredentialId(credentialId: string): Promise<Factor | null> {
    const [row] = await this.db
      .select()
      .from(factors)
      .where(and(eq(factors.credentialId, credentialId), isNotNull(factors.activated)));
    return row ? factorOf(row) : null;
  }

  async activate(id: string, at: Date, activation: FactorActivation, audit?: AuditRecord): Promise<Activated | null> {
    try {
      return await this.db.transaction(async (tx) => {
        const account = await lockedAccountOf(tx, id);
        if (!account) return null;
        const { owner, subjectId } = account;
        const [activated] = await tx
          .update(factors)
          .set(activationColumns(at, activation))
          .where(and(eq(factors.id, id), isNull(factors.activated)))
          .returning({ id: factors.id });
        if (!activated) return null;
        // The account's row is locked: of two factors verified at once, only one finds no other active.
        const [other] = await tx
          .select({ id: factors.id })
          .from(factors)
          .where(and(ofAccount(factors, owner, subjectId), isNotNull(factors.activated), ne(factors.id, id)))
          .limit(1);
        const first = !other;
        if (first && activation.recoveryCodeDigests) {
          await replaceCodes(tx, owner, subjectId, activation.recoveryCodeDigests);
        }
        if (audit) await appendAuditEvent(tx, audit);
        return { first };
      });
    } catch (error) {
      // Another factor registered the credential first: the transaction rolled back.
      if (isCredentialIdTaken(error)) return null;
      throw error;
    }
  }

  async useTotpStep(id: string, step: number, at: Date): Promise<boolean> {
    const used = await this.db
      .update(factors)
      .set({ totpLastStep: step, lastUsed: at })
      .where(totpStepUsable(factors, id, step))
      .returning({ id: factors.id });
    return used.length > 0;
  }

  async usePasskey(id: string, counter: number, at: Date, audit?: AuditRecord): Promise<void> {
    await writeWithAudit(this.db, audit, async (tx) => {
      const used = await tx
        .update(factors)
        .set({ credentialCounter: counter, lastUsed: at })
        .where(and(eq(factors.id, id), isNotNull(factors.credentialId)))
        .returning({ id: factors.id });
      return used.length > 0;
    });
  }

  async remove(id: string, audit?: AuditRecord): Promise<boolean> {
    return this.db.transaction(async (tx) => {
      const account = await lockedAccountOf(tx, id);
      if (!account) return false;
      const { owner, subjectId } = account;
      const removed = await tx.delete(factors).where(eq(factors.id, id)).returning({ id: factors.id });
      if (removed.length === 0) return false;
      // The codes stand in for a factor: with no active factor left they stand in for nothing.
      const [stillActive] = await tx
        .select({ id: factors.id })
        .from(factors)
        .where(and(ofAccount(factors, owner, subjectId), isNotNull(factors.activated)))
        .limit(1);
      if (!stillActive) await tx.delete(recoveryCodes).where(ofAccount(recoveryCodes, owner, subjectId));
      if (audit) await appendAuditEvent(tx, audit);
      return true;
    });
  }

  async removeAll(
    owner: SubjectKind,
    subjectId: string,
    at: Date,
    audit?: AuditRecord,
    notice?: NewMail,
  ): Promise<number> {
    return this.db.transaction(async (tx) => {
      await lockAccount(tx, owner, subjectId);
      const removed = await tx
        .delete(factors)
        .where(ofAccount(factors, owner, subjectId))
        .returning({ id: factors.id });
      await tx.delete(recoveryCodes).where(ofAccount(recoveryCodes, owner, subjectId));
      await endSubjectSessions(tx, owner, subjectId, at);
      if (audit) await appendAuditEvent(tx, audit);
      if (notice && removed.length > 0) await insertMail(tx, notice);
      return removed.length;
    });
  }

  async replaceRecoveryCodes(
    owner: SubjectKind,
    subjectId: string,
    digests: readonly string[],
    audit?: AuditRecord,
  ): Promise<void> {
    await this.db.transaction(async (tx) => {
      await lockAccount(tx, owner, subjectId);
      await replaceCodes(tx, owner, subjectId, digests);
      if (audit) await appendAuditEvent(tx, audit);
    });
  }

  async useRecoveryCode(
    owner: SubjectKind,
    subjectId: string,
    digest: string,
    at: Date,
    audit?: AuditRecord,
  ): Promise<boolean> {
    return writeWithAudit(this.db, audit, async (tx) => {
      const used = await useCode(tx, owner, subjectId, digest, at).returning({ digest: recoveryCodes.digest });
      return used.length > 0;
    });
  }

  async recoveryCodesLeft(owner: SubjectKind, subjectId: string): Promise<number> {
    const [left] = await this.db
      .select({ n: count() })
      .from(recoveryCodes)
      .where(and(ofAccount(recoveryCodes, owner, subjectId), isNull(recoveryCodes.used)));
    return left?.n ?? 0;
  }

  async listSealedSecrets(): Promise<{ id: string; secret: SealedText }[]> {
    const rows = await this.db
      .select({ id: factors.id, keyId: factors.totpKeyId, ciphertext: factors.totpCiphertext })
      .from(factors)
      .where(eq(factors.kind, 'totp'));
    return rows.map(({ id, keyId, ciphertext }) => ({ id, secret: { keyId: keyId!, ciphertext: ciphertext! } }));
  }

  async reseal(id: string, secret: SealedText): Promise<void> {
    await this.db
      .update(factors)
      .set({ totpKeyId: secret.keyId, totpCiphertext: secret.ciphertext })
      .where(and(eq(factors.id, id), eq(factors.kind, 'totp')));
  }
}

/** One active factor of the account: what every password login asks. Exported for the query plan tests. */
export function selectActiveFactor(db: PostgresDb, owner: SubjectKind, subjectId: string | Placeholder) {
  return db
    .select({ id: factors.id })
    .from(factors)
    .where(and(ofAccount(factors, owner, subjectId), isNotNull(factors.activated)))
    .limit(1);
}

/** Marks the account's unused code `digest` used: the whole check and use. Exported for the query plan tests. */
export function useCode(db: PostgresDb | PostgresTx, owner: SubjectKind, subjectId: string, digest: string, at: Date) {
  return db
    .update(recoveryCodes)
    .set({ used: at })
    .where(
      and(ofAccount(recoveryCodes, owner, subjectId), eq(recoveryCodes.digest, digest), isNull(recoveryCodes.used)),
    );
}

/** Holds the account's row until the transaction ends: its factor-wide changes take turns. */
async function lockAccount(tx: PostgresTx, owner: SubjectKind, subjectId: string): Promise<void> {
  // NO KEY UPDATE: a login's session insert (a key share) of the same account is not held up.
  if (owner === 'user')
    await tx.select({ id: users.id }).from(users).where(eq(users.id, subjectId)).for('no key update');
  else await tx.select({ id: admins.id }).from(admins).where(eq(admins.id, subjectId)).for('no key update');
}

/** The account of factor `id`, locked (see lockAccount); undefined for an unknown factor. */
async function lockedAccountOf(tx: PostgresTx, id: string) {
  const [row] = await tx
    .select({ userId: factors.userId, adminId: factors.adminId })
    .from(factors)
    .where(eq(factors.id, id));
  if (!row) return undefined;
  const account = accountOf(row);
  await lockAccount(tx, account.owner, account.subjectId);
  return account;
}

/** Replaces the account's recovery codes with `digests`, inside the caller's transaction. */
async function replaceCodes(
  tx: PostgresTx,
  owner: SubjectKind,
  subjectId: string,
  digests: readonly string[],
): Promise<void> {
  await tx.delete(recoveryCodes).where(ofAccount(recoveryCodes, owner, subjectId));
  if (digests.length === 0) return;
  const account = accountColumns(owner, subjectId);
  await tx.insert(recoveryCodes).values(digests.map((digest) => ({ ...account, digest, used: null })));
}
