import { eq, sql } from 'drizzle-orm';
import type { Admin, AdminRepository } from '@uas/domain';
import type { SqliteDb } from './sqlite-db';
import { liveSessionsOf } from '../shared/conditions';
import { admins, sessions } from './sqlite-schema';
import { preparedOnUse } from './prepared-on-use';

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
}
