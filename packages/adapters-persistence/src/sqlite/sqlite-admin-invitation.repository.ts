import { and, asc, eq, getTableColumns } from 'drizzle-orm';
import {
  EmailTakenError,
  type Admin,
  type AdminInvitation,
  type AdminInvitationRepository,
  type AuditRecord,
  type NewMail,
  type StoredAdminInvitation,
} from '@uas/domain';
import { pendingAdminInvitation, pendingAdminInvitationUnder, unusedAdminInvitationsTo } from '../shared/conditions';
import { appendAuditEvent } from './sqlite-audit-trail';
import type { SqliteDb } from './sqlite-db';
import { insertMail } from './sqlite-mail-queue';
import { adminInvitations, admins } from './sqlite-schema';

/** Every column but the digest: what a lookup answers. */
const { digest: _digest, ...listed } = getTableColumns(adminInvitations);

// Each write is one IMMEDIATE transaction: it holds the write lock from its first read, so the
// address it finds free is free when it writes, and of two acceptances of one link the second
// finds it used. Callbacks are synchronous, as better-sqlite3 requires.
const IMMEDIATE = { behavior: 'immediate' } as const;

export class SqliteAdminInvitationRepository implements AdminInvitationRepository {
  constructor(private readonly db: SqliteDb) {}

  async create(invitation: StoredAdminInvitation, mail: NewMail, audit: AuditRecord): Promise<void> {
    this.db.transaction((tx) => {
      if (tx.select({ id: admins.id }).from(admins).where(eq(admins.email, invitation.email)).get()) {
        throw new EmailTakenError();
      }
      tx.update(adminInvitations)
        .set({ used: invitation.created })
        .where(unusedAdminInvitationsTo(adminInvitations, invitation.email))
        .run();
      tx.insert(adminInvitations).values(invitation).run();
      insertMail(tx, mail);
      appendAuditEvent(tx, audit);
    }, IMMEDIATE);
  }

  async listPending(now: Date): Promise<AdminInvitation[]> {
    return this.db
      .select(listed)
      .from(adminInvitations)
      .where(pendingAdminInvitation(adminInvitations, now))
      .orderBy(asc(adminInvitations.created), asc(adminInvitations.id))
      .all();
  }

  async withdraw(
    id: string,
    now: Date,
    audit: (invitation: AdminInvitation) => AuditRecord,
  ): Promise<AdminInvitation | null> {
    return this.db.transaction((tx) => {
      const withdrawn = tx
        .update(adminInvitations)
        .set({ used: now })
        .where(and(eq(adminInvitations.id, id), pendingAdminInvitation(adminInvitations, now)))
        .returning(listed)
        .get();
      if (!withdrawn) return null;
      appendAuditEvent(tx, audit({ ...withdrawn, used: null }));
      return withdrawn;
    }, IMMEDIATE);
  }

  async accept(
    digests: readonly string[],
    now: Date,
    join: (invitation: AdminInvitation) => { admin: Admin; audit: AuditRecord },
  ): Promise<Admin | null> {
    if (digests.length === 0) return null;
    return this.db.transaction((tx) => {
      // Used by this one statement: of concurrent acceptances only one finds it pending.
      const invitation = tx
        .update(adminInvitations)
        .set({ used: now })
        .where(pendingAdminInvitationUnder(adminInvitations, digests, now))
        .returning(listed)
        .get();
      if (!invitation) return null;
      const { admin, audit } = join({ ...invitation, used: null });
      // A taken address fails the insert (EmailTakenError) and rolls the use back.
      tx.insert(admins).values(admin).run();
      appendAuditEvent(tx, audit);
      return admin;
    }, IMMEDIATE);
  }
}
