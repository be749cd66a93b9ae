import { count, eq } from 'drizzle-orm';
import type { User, UserListQuery, UserPage, UserRepository, UserWrite } from '@uas/domain';
import { liveSessionsOf } from '../shared/conditions';
import { chunks, ROWS_PER_INSERT } from '../shared/chunks';
import { userFilter, userPage } from '../shared/user-page';
import type { SqliteDb } from './sqlite-db';
import { sessions, users } from './sqlite-schema';

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

  async insertMany(batch: readonly User[]): Promise<void> {
    // One transaction: all or none, and one commit (one fsync) for the whole batch.
    this.db.transaction((tx) => {
      for (const rows of chunks(batch, ROWS_PER_INSERT)) tx.insert(users).values(rows).run();
    });
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

  // Each change is one IMMEDIATE transaction: it takes the database's write lock before it reads,
  // so no other connection or process writes between the read and the write. Its callback is
  // synchronous, as better-sqlite3 requires.
  async update(id: string, change: (current: User) => UserWrite): Promise<User | null> {
    return this.db.transaction(
      (tx) => {
        const current = tx.select().from(users).where(eq(users.id, id)).get();
        if (!current) return null;
        const { user, endSessions } = change(current);
        const { id: _, ...columns } = user;
        const stored = tx.update(users).set(columns).where(eq(users.id, id)).returning().get() ?? null;
        if (endSessions) endUserSessions(tx, id, user.updated, endSessions.keepSessionId);
        return stored;
      },
      { behavior: 'immediate' },
    );
  }

  async delete(id: string, at: Date, check?: (current: User) => void): Promise<boolean> {
    return this.db.transaction(
      (tx) => {
        const current = tx.select().from(users).where(eq(users.id, id)).get();
        if (!current) return false;
        check?.(current);
        tx.delete(users).where(eq(users.id, id)).run();
        endUserSessions(tx, id, at);
        return true;
      },
      { behavior: 'immediate' },
    );
  }
}

function endUserSessions(tx: SqliteDb, userId: string, at: Date, keepSessionId?: string): void {
  tx.update(sessions).set({ revoked: at }).where(liveSessionsOf(sessions, 'user', userId, keepSessionId)).run();
}
