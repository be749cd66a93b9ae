import { and, count, eq, ne, sql } from 'drizzle-orm';
import { LastOwnerError, type Admin, type AdminChange, type AdminRepository, type AuditRecord } from '@uas/domain';
import type { SqliteDb } from './sqlite-db';
import { liveSessionsOf } from '../shared/conditions';
import { appendAuditEvent } from './sqlite-audit-trail';
import { admins, sessions } from './sqlite-schema';
import { preparedOnUse } from './prepared-on-use';

// A change of roles or a removal is one IMMEDIATE transaction: it holds the database's write
// lock from its first read, so the owners it counts are the owners when it writes, on every
// connection and process. Two owners demoting each other run one after the other.
const IMMEDIATE = { behavior: 'immediate' } as const;

/** LastOwnerError unless an owner other than `id` exists. */
function keepAnOwner(tx: SqliteDb, id: string): void {
  const [others] = tx
    .select({ owners: count() })
    .from(admins)
    .where(and(eq(admins.role, 'owner'), ne(admins.id, id)))
    .all();
  if ((others?.owners ?? 0) === 0) throw new LastOwnerError();
}

export class SqliteAdminRepository implements AdminRepository {
  // Every admin request looks its admin up.
  private readonly byId = preparedOnUse(() =>
    this.db
      .select()
      .from(admins)
      .where(eq(admins.id, sql.placeholder('id')))
      .prepare(),
  );

  constructor(private readonly db: SqliteDb) {}

  async insert(admin: Admin): Promise<void> {
    this.db.insert(admins).values(admin).run();
  }

  async findById(id: string): Promise<Admin | null> {
    return this.byId().get({ id }) ?? null;
  }

  async findByEmail(email: string): Promise<Admin | null> {
    return this.db.select().from(admins).where(eq(admins.email, email)).get() ?? null;
  }

  async findFirst(): Promise<Admin | null> {
    return this.db.select().from(admins).orderBy(admins.created, admins.id).limit(1).get() ?? null;
  }

  // One synchronous transaction, as better-sqlite3 requires.
  async update({ id, ...changes }: Admin, { endSessions = false } = {}): Promise<Admin | null> {
    return this.db.transaction((tx) => {
      const admin = tx.update(admins).set(changes).where(eq(admins.id, id)).returning().get() ?? null;
      if (admin && endSessions) {
        tx.update(sessions)
          .set({ revoked: changes.updated })
          .where(liveSessionsOf(sessions, 'admin', id, undefined))
          .run();
      }
      return admin;
    });
  }

  async list(): Promise<Admin[]> {
    return this.db.select().from(admins).orderBy(admins.created, admins.id).all();
  }

  async change(id: string, change: (current: Admin) => AdminChange): Promise<Admin | null> {
    return this.db.transaction((tx) => {
      const current = tx.select().from(admins).where(eq(admins.id, id)).get();
      if (!current) return null;
      const { admin, audit } = change(current);
      if (current.role === 'owner' && admin.role !== 'owner') keepAnOwner(tx, id);
      const { id: _id, ...columns } = admin;
      const stored = tx.update(admins).set(columns).where(eq(admins.id, id)).returning().get() ?? null;
      if (audit) appendAuditEvent(tx, audit);
      return stored;
    }, IMMEDIATE);
  }

  async remove(id: string, at: Date, audit: (removed: Admin) => AuditRecord): Promise<Admin | null> {
    return this.db.transaction((tx) => {
      const current = tx.select().from(admins).where(eq(admins.id, id)).get();
      if (!current) return null;
      if (current.role === 'owner') keepAnOwner(tx, id);
      // Its factors and sign-in challenges go with it (foreign keys); its sessions end.
      tx.delete(admins).where(eq(admins.id, id)).run();
      tx.update(sessions)
        .set({ revoked: at })
        .where(liveSessionsOf(sessions, 'admin', id, undefined))
        .run();
      appendAuditEvent(tx, audit(current));
      return current;
    }, IMMEDIATE);
  }
}
