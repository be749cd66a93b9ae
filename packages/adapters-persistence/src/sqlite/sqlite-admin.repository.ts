import { eq } from 'drizzle-orm';
import type { Admin, AdminRepository } from '@uas/domain';
import type { SqliteDb } from './sqlite-db';
import { admins } from './sqlite-schema';

export class SqliteAdminRepository implements AdminRepository {
  constructor(private readonly db: SqliteDb) {}

  async insert(admin: Admin): Promise<void> {
    this.db.insert(admins).values(admin).run();
  }

  async findById(id: string): Promise<Admin | null> {
    return this.db.select().from(admins).where(eq(admins.id, id)).get() ?? null;
  }

  async findByEmail(email: string): Promise<Admin | null> {
    return this.db.select().from(admins).where(eq(admins.email, email)).get() ?? null;
  }

  async findFirst(): Promise<Admin | null> {
    return this.db.select().from(admins).orderBy(admins.created, admins.id).limit(1).get() ?? null;
  }

  async update({ id, ...changes }: Admin): Promise<Admin | null> {
    return this.db.update(admins).set(changes).where(eq(admins.id, id)).returning().get() ?? null;
  }
}
