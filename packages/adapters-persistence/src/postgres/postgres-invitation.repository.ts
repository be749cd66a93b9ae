import { and, asc, count, eq, getTableColumns, isNull } from 'drizzle-orm';
import {
  hasPassword,
  type AuditRecord,
  type Invitation,
  type InvitationPage,
  type InvitationRepository,
  type InvitationResend,
  type InvitationWrite,
  type ListedInvitation,
  type User,
} from '@uas/domain';
import { usableActionToken } from '../shared/conditions';
import { deleteAccountRecords } from './postgres-openid-record-statements';
import { appendAuditEvent } from './postgres-audit-trail';
import type { PostgresDb, PostgresTx } from './postgres-db';
import { voidTokensOf } from './postgres-action-token-statements';
import { insertMail } from './postgres-mail-queue';
import { actionTokens, invitations, users } from './postgres-schema';

/** An invitation with its user's address and name: the shape the admin list shows. */
const listed = { ...getTableColumns(invitations), email: users.email, name: users.name };

function selectPending(db: PostgresDb | PostgresTx, id: string) {
  return db
    .select(listed)
    .from(invitations)
    .innerJoin(users, eq(users.id, invitations.userId))
    .where(and(eq(invitations.id, id), isNull(invitations.accepted)));
}

/**
 * Locks the invitee's row: every change of an invitation holds it first, as every change of a
 * user does, then reads the invitation afresh (read committed: each statement sees what committed
 * before it). So an acceptance, a revocation and a resend of one invitation run one after the
 * other, and take their locks in one order (user, invitation, tokens): no deadlock.
 */
async function lockedUser(tx: PostgresTx, id: string): Promise<User | undefined> {
  const [user] = await tx.select().from(users).where(eq(users.id, id)).for('update');
  return user;
}

/** The invitee of an invitation, read without a lock: which row to lock. */
async function inviteeOf(tx: PostgresTx, id: string): Promise<string | undefined> {
  const [row] = await tx.select({ userId: invitations.userId }).from(invitations).where(eq(invitations.id, id));
  return row?.userId;
}

export class PostgresInvitationRepository implements InvitationRepository {
  constructor(private readonly db: PostgresDb) {}

  async create({ user, invitation, token, mail, audit }: InvitationWrite): Promise<void> {
    await this.db.transaction(async (tx) => {
      await tx.insert(users).values(user);
      await tx.insert(invitations).values(invitation);
      await tx.insert(actionTokens).values(token);
      await insertMail(tx, mail);
      await appendAuditEvent(tx, audit);
    });
  }

  async findPending(id: string): Promise<ListedInvitation | null> {
    const [pending] = await selectPending(this.db, id);
    return pending ?? null;
  }

  /** Counted from the partial index of pending invitations: there are few, unlike users. */
  async listPending({ page, size }: { page: number; size: number }): Promise<InvitationPage> {
    return this.db.transaction(
      async (tx) => {
        const [counted] = await tx.select({ total: count() }).from(invitations).where(isNull(invitations.accepted));
        const rows = await tx
          .select(listed)
          .from(invitations)
          .innerJoin(users, eq(users.id, invitations.userId))
          .where(isNull(invitations.accepted))
          .orderBy(asc(invitations.created), asc(invitations.id))
          .limit(size)
          .offset((page - 1) * size);
        return { invitations: rows, total: Number(counted?.total ?? 0) };
      },
      { isolationLevel: 'repeatable read', accessMode: 'read only' },
    );
  }

  async resend(id: string, { token, mail, audit }: InvitationResend): Promise<ListedInvitation | null> {
    return this.db.transaction(async (tx) => {
      const userId = await inviteeOf(tx, id);
      if (!userId || !(await lockedUser(tx, userId))) return null;
      const [pending] = await selectPending(tx, id);
      if (!pending || pending.email !== token.email) return null;
      await voidTokensOf(tx, userId, token.created);
      await tx.insert(actionTokens).values(token);
      await insertMail(tx, mail);
      await tx.update(invitations).set({ sent: token.created, expires: token.expires }).where(eq(invitations.id, id));
      await appendAuditEvent(tx, audit);
      return { ...pending, sent: token.created, expires: token.expires };
    });
  }

  async revoke(
    id: string,
    at: Date,
    audit: (pending: ListedInvitation, userRemoved: boolean) => AuditRecord,
  ): Promise<ListedInvitation | null> {
    return this.db.transaction(async (tx) => {
      const userId = await inviteeOf(tx, id);
      const user = userId && (await lockedUser(tx, userId));
      if (!user) return null;
      const [pending] = await selectPending(tx, id);
      if (!pending) return null;
      // Its tokens go with the user (cascade); a user given a password meanwhile stays.
      const kept = hasPassword(user.passwordHash);
      const record = audit(pending, !kept);
      await tx.delete(invitations).where(eq(invitations.id, id));
      if (kept) await voidTokensOf(tx, user.id, at);
      else {
        await tx.delete(users).where(eq(users.id, user.id));
        await deleteAccountRecords(tx, user.id);
      }
      await appendAuditEvent(tx, record);
      return pending;
    });
  }

  async accept(
    digests: readonly string[],
    now: Date,
    accept: (user: User, invitation: Invitation) => { user: User; audit: AuditRecord },
  ): Promise<Invitation | null> {
    if (digests.length === 0) return null;
    return this.db.transaction(async (tx) => {
      const usable = usableActionToken(actionTokens, 'invitation', digests, now);
      const [found] = await tx.select({ userId: actionTokens.userId }).from(actionTokens).where(usable);
      const current = found && (await lockedUser(tx, found.userId));
      if (!current) return null;
      const [invitation] = await tx
        .select()
        .from(invitations)
        .where(and(eq(invitations.userId, current.id), isNull(invitations.accepted)));
      if (!invitation) return null;
      // Used by this one statement, or by a concurrent acceptance that held the user first.
      const [used] = await tx.update(actionTokens).set({ used: now }).where(usable).returning({ id: actionTokens.id });
      if (!used) return null;
      const { user, audit } = accept(current, invitation);
      // The user's other tokens are voided, as by any new password.
      await voidTokensOf(tx, user.id, now);
      await tx.update(invitations).set({ accepted: now }).where(eq(invitations.id, invitation.id));
      const { id: _id, ...columns } = user;
      await tx.update(users).set(columns).where(eq(users.id, user.id));
      await appendAuditEvent(tx, audit);
      return { ...invitation, accepted: now };
    });
  }
}
