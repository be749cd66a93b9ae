import { count, eq } from 'drizzle-orm';
import type { User, UserListQuery, UserPage, UserRepository } from '@uas/domain';
import { userFilter, userPage } from '../shared/user-page';
import type { SqliteDb } from './sqlite-db';
import { users } from './sqlite-schema';

// SQLite's LIKE ignores ASCII case already; PostgreSQL's ILIKE is what its trigram index serves.
const CASE_INSENSITIVE_LIKE = 'like';

/** The page of users a list query asks for. */
export function selectUserPage(db: SqliteDb, query: UserListQuery) {
  return userPage(db.select().from(users).$dynamic(), users, query, CASE_INSENSITIVE_LIKE);
}

/** How many users a list query matches. */
export function selectUserCount(db: SqliteDb, query: UserListQuery) {
  return db.select({ total: count() }).from(users).where(userFilter(users, query, CASE_INSENSITIVE_LIKE));
}

export class SqliteUserRepository implements UserRepository {
  constructor(private readonly db: SqliteDb) {}

  async insert(user: User): Promise<void> {
    this.db.insert(users).values(user).run();
  }

  async findById(id: string): Promise<User | null> {
    return this.db.select().from(users).where(eq(users.id, id)).get() ?? null;
  }

  async findByEmail(email: string): Promise<User | null> {
    return this.db.select().from(users).where(eq(users.email, email)).get() ?? null;
  }

  async list(query: UserListQuery): Promise<UserPage> {
    // One read transaction, so the page and the total describe the same moment.
    return this.db.transaction((tx) => ({
      users: selectUserPage(tx, query).all(),
      total: selectUserCount(tx, query).get()?.total ?? 0,
    }));
  }

  async update({ id, ...changes }: User): Promise<User | null> {
    return this.db.update(users).set(changes).where(eq(users.id, id)).returning().get() ?? null;
  }

  async delete(id: string): Promise<boolean> {
    return this.db.delete(users).where(eq(users.id, id)).run().changes > 0;
  }
}
