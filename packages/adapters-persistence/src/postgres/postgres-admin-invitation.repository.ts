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
import { appendAuditEvent } from './postgres-audit-trail';
import type { PostgresDb } from './postgres-db';
import { insertMail } from './postgres-mail-queue';
import { adminInvitations, admins } from './postgres-schema';

/** Every column but the digest: what a lookup answers. */
const { digest: _digest, ...listed } = getTableColumns(adminInvitations);

export class PostgresAdminInvitationRepository implements AdminInvitationRepository {
  constructor(private readonly db: PostgresDb) {}

  async create(invitation: StoredAdminInvitation, mail: NewMail, audit: AuditRecord): Promise<void> {
    await this.db.transaction(async (tx) => {
      const [taken] = await tx.select({ id: admins.id }).from(admins).where(eq(admins.email, invitation.email));
      if (taken) throw new EmailTakenError();
      await tx
        .update(adminInvitations)
        .set({ used: invitation.created })
        .where(unusedAdminInvitationsTo(adminInvitations, invitation.email));
      await tx.insert(adminInvitations).values(invitation);
      await insertMail(tx, mail);
      await appendAuditEvent(tx, audit);
    });
  }

  async listPending(now: Date): Promise<AdminInvitation[]> {
    return this.db
      .select(listed)
      .from(adminInvitations)
      .where(pendingAdminInvitation(adminInvitations, now))
      .orderBy(asc(adminInvitations.created), asc(adminInvitations.id));
  }

  async withdraw(
    id: string,
    now: Date,
    audit: (invitation: AdminInvitation) => AuditRecord,
  ): Promise<AdminInvitation | null> {
    return this.db.transaction(async (tx) => {
      const [withdrawn] = await tx
        .update(adminInvitations)
        .set({ used: now })
        .where(and(eq(adminInvitations.id, id), pendingAdminInvitation(adminInvitations, now)))
        .returning(listed);
      if (!withdrawn) return null;
      await appendAuditEvent(tx, audit({ ...withdrawn, used: null }));
      return withdrawn;
    });
  }

  async accept(
    digests: readonly string[],
    now: Date,
    join: (invitation: AdminInvitation) => { admin: Admin; audit: AuditRecord },
  ): Promise<Admin | null> {
    if (digests.length === 0) return null;
    return this.db.transaction(async (tx) => {
      // Used by this one statement: a concurrent acceptance waits for its row lock, then finds
      // it used (read committed checks the condition again on the row as committed).
      const [invitation] = await tx
        .update(adminInvitations)
        .set({ used: now })
        .where(pendingAdminInvitationUnder(adminInvitations, digests, now))
        .returning(listed);
      if (!invitation) return null;
      const { admin, audit } = join({ ...invitation, used: null });
      // A taken address fails the insert (EmailTakenError) and rolls the use back.
      await tx.insert(admins).values(admin);
      await appendAuditEvent(tx, audit);
      return admin;
    });
  }
}
