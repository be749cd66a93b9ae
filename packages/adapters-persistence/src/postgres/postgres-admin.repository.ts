import { eq, sql } from 'drizzle-orm';
import { LastOwnerError, type Admin, type AdminChange, type AdminRepository, type AuditRecord } from '@uas/domain';
import type { PostgresDb, PostgresTx } from './postgres-db';
import { liveSessionsOf } from '../shared/conditions';
import { appendAuditEvent } from './postgres-audit-trail';
import { admins, sessions } from './postgres-schema';

/**
 * Locks every admin's row, in id order, and answers them as committed now: a change of roles or a
 * removal holds them all, so two owners demoting each other (on any instances) run one after the
 * other, and the second counts the owners the first left (read committed reads a locked row
 * afresh once its lock is granted). There are a few admins, never many; one order, no deadlock.
 */
const lockedAdmins = (tx: PostgresTx): Promise<Admin[]> => tx.select().from(admins).orderBy(admins.id).for('update');

/** LastOwnerError unless an owner other than `id` is among `all`. */
function keepAnOwner(all: readonly Admin[], id: string): void {
  if (!all.some((admin) => admin.role === 'owner' && admin.id !== id)) throw new LastOwnerError();
}

export class PostgresAdminRepository implements AdminRepository {
  /** Prepared once: every admin request's bearer check reads the admin by id. */
  private readonly adminById;

  constructor(private readonly db: PostgresDb) {
    this.adminById = db
      .select()
      .from(admins)
      .where(eq(admins.id, sql.placeholder('id')))
      .prepare('admin_by_id');
  }

  async insert(admin: Admin): Promise<void> {
    await this.db.insert(admins).values(admin);
  }

  async findById(id: string): Promise<Admin | null> {
    const [admin] = await this.adminById.execute({ id });
    return admin ?? null;
  }

  async findByEmail(email: string): Promise<Admin | null> {
    const [admin] = await this.db.select().from(admins).where(eq(admins.email, email));
    return admin ?? null;
  }

  async findFirst(): Promise<Admin | null> {
    const [admin] = await this.db.select().from(admins).orderBy(admins.created, admins.id).limit(1);
    return admin ?? null;
  }

  async update({ id, ...changes }: Admin, { endSessions = false } = {}): Promise<Admin | null> {
    return this.db.transaction(async (tx) => {
      const [admin] = await tx.update(admins).set(changes).where(eq(admins.id, id)).returning();
      if (admin && endSessions) {
        await tx
          .update(sessions)
          .set({ revoked: changes.updated })
          .where(liveSessionsOf(sessions, 'admin', id, undefined));
      }
      return admin ?? null;
    });
  }

  async list(): Promise<Admin[]> {
    return this.db.select().from(admins).orderBy(admins.created, admins.id);
  }

  async change(id: string, change: (current: Admin) => AdminChange): Promise<Admin | null> {
    return this.db.transaction(async (tx) => {
      const all = await lockedAdmins(tx);
      const current = all.find((admin) => admin.id === id);
      if (!current) return null;
      const { admin, audit } = change(current);
      if (current.role === 'owner' && admin.role !== 'owner') keepAnOwner(all, id);
      const { id: _id, ...columns } = admin;
      const [stored] = await tx.update(admins).set(columns).where(eq(admins.id, id)).returning();
      if (audit) await appendAuditEvent(tx, audit);
      return stored ?? null;
    });
  }

  async remove(id: string, at: Date, audit: (removed: Admin) => AuditRecord): Promise<Admin | null> {
    return this.db.transaction(async (tx) => {
      const all = await lockedAdmins(tx);
      const current = all.find((admin) => admin.id === id);
      if (!current) return null;
      if (current.role === 'owner') keepAnOwner(all, id);
      // Its factors and sign-in challenges go with it (foreign keys); its sessions end.
      await tx.delete(admins).where(eq(admins.id, id));
      await tx
        .update(sessions)
        .set({ revoked: at })
        .where(liveSessionsOf(sessions, 'admin', id, undefined));
      await appendAuditEvent(tx, audit(current));
      return current;
    });
  }
}
