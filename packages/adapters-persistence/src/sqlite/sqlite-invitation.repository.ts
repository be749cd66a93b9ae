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
import { deleteAccountRecords } from './sqlite-openid-record-statements';
import { appendAuditEvent } from './sqlite-audit-trail';
import type { SqliteDb } from './sqlite-db';
import { voidTokensOf } from './sqlite-action-token-statements';
import { insertMail } from './sqlite-mail-queue';
import { actionTokens, invitations, users } from './sqlite-schema';

/** An invitation with its user's address and name: the shape the admin list shows. */
const listed = { ...getTableColumns(invitations), email: users.email, name: users.name };

function selectPending(db: SqliteDb) {
  return db.select(listed).from(invitations).innerJoin(users, eq(users.id, invitations.userId));
}

const pendingWith = (id: string) => and(eq(invitations.id, id), isNull(invitations.accepted));

// Every change is one IMMEDIATE transaction: it holds the database's write lock from its first
// read, so no acceptance, revocation or resend on any connection lands between its read and its
// write. Callbacks are synchronous, as better-sqlite3 requires.
const IMMEDIATE = { behavior: 'immediate' } as const;

export class SqliteInvitationRepository implements InvitationRepository {
  constructor(private readonly db: SqliteDb) {}

  async create({ user, invitation, token, mail, audit }: InvitationWrite): Promise<void> {
    this.db.transaction((tx) => {
      tx.insert(users).values(user).run();
      tx.insert(invitations).values(invitation).run();
      tx.insert(actionTokens).values(token).run();
      insertMail(tx, mail);
      appendAuditEvent(tx, audit);
    }, IMMEDIATE);
  }

  async findPending(id: string): Promise<ListedInvitation | null> {
    return selectPending(this.db).where(pendingWith(id)).get() ?? null;
  }

  /** Counted from the partial index of pending invitations: there are few, unlike users. */
  async listPending({ page, size }: { page: number; size: number }): Promise<InvitationPage> {
    return this.db.transaction((tx) => {
      const [counted] = tx.select({ total: count() }).from(invitations).where(isNull(invitations.accepted)).all();
      const rows = selectPending(tx)
        .where(isNull(invitations.accepted))
        .orderBy(asc(invitations.created), asc(invitations.id))
        .limit(size)
        .offset((page - 1) * size)
        .all();
      return { invitations: rows, total: counted?.total ?? 0 };
    });
  }

  async resend(id: string, { token, mail, audit }: InvitationResend): Promise<ListedInvitation | null> {
    return this.db.transaction((tx) => {
      const pending = selectPending(tx).where(pendingWith(id)).get();
      if (!pending || pending.email !== token.email) return null;
      voidTokensOf(tx, pending.userId, token.created).run();
      tx.insert(actionTokens).values(token).run();
      insertMail(tx, mail);
      tx.update(invitations).set({ sent: token.created, expires: token.expires }).where(eq(invitations.id, id)).run();
      appendAuditEvent(tx, audit);
      return { ...pending, sent: token.created, expires: token.expires };
    }, IMMEDIATE);
  }

  async revoke(
    id: string,
    at: Date,
    audit: (pending: ListedInvitation, userRemoved: boolean) => AuditRecord,
  ): Promise<ListedInvitation | null> {
    return this.db.transaction((tx) => {
      const pending = selectPending(tx).where(pendingWith(id)).get();
      if (!pending) return null;
      const user = tx
        .select({ passwordHash: users.passwordHash })
        .from(users)
        .where(eq(users.id, pending.userId))
        .get();
      // Its tokens go with the user (cascade); a user given a password meanwhile stays.
      const kept = user !== undefined && hasPassword(user.passwordHash);
      const record = audit(pending, !kept);
      tx.delete(invitations).where(eq(invitations.id, id)).run();
      if (kept) voidTokensOf(tx, pending.userId, at).run();
      else {
        tx.delete(users).where(eq(users.id, pending.userId)).run();
        deleteAccountRecords(tx, pending.userId).run();
      }
      appendAuditEvent(tx, record);
      return pending;
    }, IMMEDIATE);
  }

  async accept(
    digests: readonly string[],
    now: Date,
    accept: (user: User, invitation: Invitation) => { user: User; audit: AuditRecord },
  ): Promise<Invitation | null> {
    if (digests.length === 0) return null;
    return this.db.transaction((tx) => {
      const token = tx
        .select({ id: actionTokens.id, userId: actionTokens.userId })
        .from(actionTokens)
        .where(usableActionToken(actionTokens, 'invitation', digests, now))
        .get();
      if (!token) return null;
      const invitation = tx
        .select()
        .from(invitations)
        .where(and(eq(invitations.userId, token.userId), isNull(invitations.accepted)))
        .get();
      const current = tx.select().from(users).where(eq(users.id, token.userId)).get();
      if (!invitation || !current) return null;
      const { user, audit } = accept(current, invitation);
      // The token is used, and the user's others voided, as by any new password.
      voidTokensOf(tx, user.id, now).run();
      tx.update(invitations).set({ accepted: now }).where(eq(invitations.id, invitation.id)).run();
      const { id: _id, ...columns } = user;
      tx.update(users).set(columns).where(eq(users.id, user.id)).run();
      appendAuditEvent(tx, audit);
      return { ...invitation, accepted: now };
    }, IMMEDIATE);
  }
}
