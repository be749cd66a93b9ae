import { eq } from 'drizzle-orm';
import type { Admin, AdminRepository } from '@uas/domain';
import type { PostgresDb } from './postgres-db';
import { admins } from './postgres-schema';

export class PostgresAdminRepository implements AdminRepository {
  constructor(private readonly db: PostgresDb) {}

  async insert(admin: Admin): Promise<void> {
    await this.db.insert(admins).values(admin);
  }

  async findById(id: string): Promise<Admin | null> {
    const [admin] = await this.db.select().from(admins).where(eq(admins.id, id));
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

  async update({ id, ...changes }: Admin): Promise<Admin | null> {
    const [admin] = await this.db.update(admins).set(changes).where(eq(admins.id, id)).returning();
    return admin ?? null;
  }
}
