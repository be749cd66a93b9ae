import { count, eq } from 'drizzle-orm';
import type { User, UserListQuery, UserPage, UserRepository, UserWrite } from '@uas/domain';
import { liveSessionsOf } from '../shared/conditions';
import { chunks, ROWS_PER_INSERT } from '../shared/chunks';
import { userFilter, userPage } from '../shared/user-page';
import type { PostgresDb, PostgresTx } from './postgres-db';
import { sessions, users } from './postgres-schema';

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

  async insertMany(batch: readonly User[]): Promise<void> {
    await this.db.transaction(async (tx) => {
      for (const rows of chunks(batch, ROWS_PER_INSERT)) await tx.insert(users).values(rows);
    });
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

  // Each change reads the row FOR UPDATE: a concurrent change of the same user waits for this
  // transaction to commit, then reads what it wrote. Sessions end in the same transaction.
  async update(id: string, change: (current: User) => UserWrite): Promise<User | null> {
    return this.db.transaction(async (tx) => {
      const current = await lockedUser(tx, id);
      if (!current) return null;
      const { user, endSessions } = change(current);
      const { id: _, ...columns } = user;
      const [stored] = await tx.update(users).set(columns).where(eq(users.id, id)).returning();
      if (endSessions) await endUserSessions(tx, id, user.updated, endSessions.keepSessionId);
      return stored ?? null;
    });
  }

  async delete(id: string, at: Date, check?: (current: User) => void): Promise<boolean> {
    return this.db.transaction(async (tx) => {
      const current = await lockedUser(tx, id);
      if (!current) return false;
      check?.(current);
      await tx.delete(users).where(eq(users.id, id));
      await endUserSessions(tx, id, at);
      return true;
    });
  }
}

async function lockedUser(tx: PostgresTx, id: string): Promise<User | undefined> {
  const [user] = await tx.select().from(users).where(eq(users.id, id)).for('update');
  return user;
}

async function endUserSessions(tx: PostgresTx, userId: string, at: Date, keepSessionId?: string): Promise<void> {
  await tx.update(sessions).set({ revoked: at }).where(liveSessionsOf(sessions, 'user', userId, keepSessionId));
}
