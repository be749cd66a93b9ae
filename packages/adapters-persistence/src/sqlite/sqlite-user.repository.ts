import { count, eq } from 'drizzle-orm';
import type { User, UserListQuery, UserPage, UserRepository } from '@uas/domain';
import { columnContains } from '../shared/like-pattern';
import type { SqliteDb } from './sqlite-db';
import { users } from './sqlite-schema';

const emailFilter = (query: UserListQuery) => (query.emailContains ? columnContains(users.email, query.emailContains, 'like') : undefined);

/** The page of users a list query asks for, in the order the (created, id) index serves. */
export function selectUserPage(db: SqliteDb, query: UserListQuery) {
  return db
    .select()
    .from(users)
    .where(emailFilter(query))
    .orderBy(users.created, users.id)
    .limit(query.size)
    .offset((query.page - 1) * query.size);
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
      total: tx.select({ total: count() }).from(users).where(emailFilter(query)).get()?.total ?? 0,
    }));
  }

  async update({ id, ...changes }: User): Promise<User | null> {
    return this.db.update(users).set(changes).where(eq(users.id, id)).returning().get() ?? null;
  }

  async delete(id: string): Promise<boolean> {
    return this.db.delete(users).where(eq(users.id, id)).run().changes > 0;
  }
}
