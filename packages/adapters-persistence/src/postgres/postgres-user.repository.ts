import { count, eq } from 'drizzle-orm';
import type { User, UserListQuery, UserPage, UserRepository } from '@uas/domain';
import { userFilter, userPage } from '../shared/user-page';
import type { PostgresDb } from './postgres-db';
import { users } from './postgres-schema';

// SQLite's LIKE ignores ASCII case already; PostgreSQL's ILIKE is what its trigram index serves.
const CASE_INSENSITIVE_LIKE = 'ilike';

/** The page of users a list query asks for. */
export function selectUserPage(db: PostgresDb, query: UserListQuery) {
  return userPage(db.select().from(users).$dynamic(), users, query, CASE_INSENSITIVE_LIKE);
}

/** How many users a list query matches. */
export function selectUserCount(db: PostgresDb, query: UserListQuery) {
  return db.select({ total: count() }).from(users).where(userFilter(users, query, CASE_INSENSITIVE_LIKE));
}

export class PostgresUserRepository implements UserRepository {
  constructor(private readonly db: PostgresDb) {}

  async insert(user: User): Promise<void> {
    await this.db.insert(users).values(user);
  }

  async findById(id: string): Promise<User | null> {
    const [user] = await this.db.select().from(users).where(eq(users.id, id));
    return user ?? null;
  }

  async findByEmail(email: string): Promise<User | null> {
    const [user] = await this.db.select().from(users).where(eq(users.email, email));
    return user ?? null;
  }

  async list(query: UserListQuery): Promise<UserPage> {
    // One snapshot, so the page and the total describe the same moment.
    return this.db.transaction(
      async (tx) => {
        const page = await selectUserPage(tx, query);
        const [matching] = await selectUserCount(tx, query);
        return { users: page, total: matching?.total ?? 0 };
      },
      { isolationLevel: 'repeatable read', accessMode: 'read only' },
    );
  }

  async update({ id, ...changes }: User): Promise<User | null> {
    const [user] = await this.db.update(users).set(changes).where(eq(users.id, id)).returning();
    return user ?? null;
  }

  async delete(id: string): Promise<boolean> {
    const deleted = await this.db.delete(users).where(eq(users.id, id)).returning({ id: users.id });
    return deleted.length > 0;
  }
}
