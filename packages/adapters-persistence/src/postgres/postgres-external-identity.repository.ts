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
import { appendAuditEvent } from './postgres-audit-trail';
import type { PostgresDb } from './postgres-db';
import { externalIdentities, factors, users } from './postgres-schema';

export class PostgresExternalIdentityRepository implements ExternalIdentityRepository {
  constructor(private readonly db: PostgresDb) {}

  async findBySubject(providerId: string, subject: string): Promise<ExternalIdentity | null> {
    const [row] = await this.db
      .select()
      .from(externalIdentities)
      .where(and(eq(externalIdentities.providerId, providerId), eq(externalIdentities.subject, subject)));
    return row ?? null;
  }

  async listByUser(userId: string): Promise<ExternalIdentity[]> {
    return this.db
      .select()
      .from(externalIdentities)
      .where(eq(externalIdentities.userId, userId))
      .orderBy(externalIdentities.created, externalIdentities.id);
  }

  async link(identity: ExternalIdentity, audit: AuditRecord): Promise<ExternalIdentity | null> {
    try {
      return await this.db.transaction(async (tx) => {
        const [row] = await tx.insert(externalIdentities).values(identity).returning();
        await appendAuditEvent(tx, audit);
        return row!;
      });
    } catch (error) {
      return linkedOrNull(error);
    }
  }

  async createUserWithIdentity(user: User, identity: ExternalIdentity, audit: AuditRecord): Promise<void> {
    try {
      await this.db.transaction(async (tx) => {
        await tx.insert(users).values(user);
        await tx.insert(externalIdentities).values(identity);
        await appendAuditEvent(tx, audit);
      });
    } catch (error) {
      throw identityTakenOr(error);
    }
  }

  async touch(id: string, email: string | null, emailVerified: boolean, at: Date, audit: AuditRecord): Promise<void> {
    await this.db.transaction(async (tx) => {
      const touched = await tx
        .update(externalIdentities)
        .set({ email, emailVerified, lastSignIn: at })
        .where(eq(externalIdentities.id, id))
        .returning({ id: externalIdentities.id });
      if (touched.length > 0) await appendAuditEvent(tx, audit);
    });
  }

  async unlink(userId: string, id: string, audit: AuditRecord): Promise<boolean> {
    return this.db.transaction(async (tx) => {
      // The user's row lock makes unlinks of one user's identities take turns: each counts the
      // ways in the one before it left. NO KEY UPDATE leaves the rows that only reference the user
      // (sessions, a link) free to be written meanwhile.
      const [user] = await tx
        .select({ passwordHash: users.passwordHash })
        .from(users)
        .where(eq(users.id, userId))
        .for('no key update');
      if (!user) return false;
      const mine = identityOfUser(externalIdentities, id, userId);
      const [identity] = await tx.select({ id: externalIdentities.id }).from(externalIdentities).where(mine);
      if (!identity) return false;
      const [passkey] = await tx
        .select({ id: factors.id })
        .from(factors)
        .where(and(eq(factors.userId, userId), eq(factors.kind, 'webauthn'), isNotNull(factors.activated)))
        .limit(1);
      const [another] = await tx
        .select({ id: externalIdentities.id })
        .from(externalIdentities)
        .where(and(eq(externalIdentities.userId, userId), ne(externalIdentities.id, id)))
        .limit(1);
      if (!hasPassword(user.passwordHash) && !passkey && !another) throw new LastSignInMethodError();
      await tx.delete(externalIdentities).where(mine);
      await appendAuditEvent(tx, audit);
      return true;
    });
  }
}
