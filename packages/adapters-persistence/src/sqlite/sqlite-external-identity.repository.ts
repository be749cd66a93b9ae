import { and, eq, isNotNull, ne } from 'drizzle-orm';
import {
  hasPassword,
  LastSignInMethodError,
  type AuditRecord,
  type ExternalIdentity,
  type ExternalIdentityRepository,
  type User,
} from '@uas/domain';
import { identityOfUser } from '../shared/identity-conditions';
import { identityTakenOr, linkedOrNull } from '../shared/identity-errors';
import { appendAuditEvent } from './sqlite-audit-trail';
import type { SqliteDb } from './sqlite-db';
import { externalIdentities, factors, users } from './sqlite-schema';

// Each write is one IMMEDIATE transaction: it holds the write lock from its first read, so what
// unlink counts as the user's other ways in is what is there when it deletes. Callbacks are
// synchronous, as better-sqlite3 requires.
const IMMEDIATE = { behavior: 'immediate' } as const;

export class SqliteExternalIdentityRepository implements ExternalIdentityRepository {
  constructor(private readonly db: SqliteDb) {}

  async findBySubject(providerId: string, subject: string): Promise<ExternalIdentity | null> {
    return (
      this.db
        .select()
        .from(externalIdentities)
        .where(and(eq(externalIdentities.providerId, providerId), eq(externalIdentities.subject, subject)))
        .get() ?? null
    );
  }

  async listByUser(userId: string): Promise<ExternalIdentity[]> {
    return this.db
      .select()
      .from(externalIdentities)
      .where(eq(externalIdentities.userId, userId))
      .orderBy(externalIdentities.created, externalIdentities.id)
      .all();
  }

  async link(identity: ExternalIdentity, audit: AuditRecord): Promise<ExternalIdentity | null> {
    try {
      return this.db.transaction((tx) => {
        const row = tx.insert(externalIdentities).values(identity).returning().get();
        appendAuditEvent(tx, audit);
        return row;
      }, IMMEDIATE);
    } catch (error) {
      return linkedOrNull(error);
    }
  }

  async createUserWithIdentity(user: User, identity: ExternalIdentity, audit: AuditRecord): Promise<void> {
    try {
      this.db.transaction((tx) => {
        tx.insert(users).values(user).run();
        tx.insert(externalIdentities).values(identity).run();
        appendAuditEvent(tx, audit);
      }, IMMEDIATE);
    } catch (error) {
      throw identityTakenOr(error);
    }
  }

  async touch(id: string, email: string | null, emailVerified: boolean, at: Date, audit: AuditRecord): Promise<void> {
    this.db.transaction((tx) => {
      const touched = tx
        .update(externalIdentities)
        .set({ email, emailVerified, lastSignIn: at })
        .where(eq(externalIdentities.id, id))
        .run();
      if (touched.changes > 0) appendAuditEvent(tx, audit);
    }, IMMEDIATE);
  }

  async unlink(userId: string, id: string, audit: AuditRecord): Promise<boolean> {
    return this.db.transaction((tx) => {
      const mine = identityOfUser(externalIdentities, id, userId);
      if (!tx.select({ id: externalIdentities.id }).from(externalIdentities).where(mine).get()) return false;
      const user = tx.select({ passwordHash: users.passwordHash }).from(users).where(eq(users.id, userId)).get();
      const passkey = tx
        .select({ id: factors.id })
        .from(factors)
        .where(and(eq(factors.userId, userId), eq(factors.kind, 'webauthn'), isNotNull(factors.activated)))
        .get();
      const another = tx
        .select({ id: externalIdentities.id })
        .from(externalIdentities)
        .where(and(eq(externalIdentities.userId, userId), ne(externalIdentities.id, id)))
        .get();
      if (!(user && hasPassword(user.passwordHash)) && !passkey && !another) throw new LastSignInMethodError();
      tx.delete(externalIdentities).where(mine).run();
      appendAuditEvent(tx, audit);
      return true;
    }, IMMEDIATE);
  }
}
