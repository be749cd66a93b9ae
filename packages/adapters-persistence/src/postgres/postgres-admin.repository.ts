import { eq, sql } from 'drizzle-orm';
import type { Admin, AdminRepository } from '@uas/domain';
import type { PostgresDb } from './postgres-db';
import { liveSessionsOf } from '../shared/conditions';
import { admins, sessions } from './postgres-schema';

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
}
