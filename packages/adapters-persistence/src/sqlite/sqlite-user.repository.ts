import { eq, sql } from 'drizzle-orm';
import type {
  ActionPurpose,
  ActionToken,
  AuditRecord,
  PreparedActionToken,
  User,
  UserListQuery,
  UserPage,
  UserRepository,
  UserWrite,
} from '@uas/domain';
import { chunks, ROWS_PER_INSERT } from '../shared/chunks';
import { MatchCache } from '../shared/match-cache';
import { appendAuditEvent, writeWithAudit } from './sqlite-audit-trail';
import type { SqliteDb } from './sqlite-db';
import type { SqliteGroupCommit } from './sqlite-group-commit';
import type { SqliteReadWorkers } from './sqlite-read-workers';
import { SqliteUserList, type ListReply } from './sqlite-user-list';
import { insertActionToken, useToken } from './sqlite-action-token-statements';
import { currentUser, writeUser } from './sqlite-user-write';
import { endSubjectSessions } from './sqlite-subject-sessions';
import { users } from './sqlite-schema';

function prepareStatements(db: SqliteDb) {
  return {
    findByEmail: db
      .select()
      .from(users)
      .where(eq(users.email, sql.placeholder('email')))
      .prepare(),
  };
}

export class SqliteUserRepository implements UserRepository {
  private prepared: ReturnType<typeof prepareStatements> | undefined;
  private readonly lists: SqliteUserList;
  private readonly searches = new MatchCache();

  /** With `workers`, lists that cost more than a few index entries or cached ids run on them. */
  constructor(
    private readonly db: SqliteDb,
    private readonly writes: SqliteGroupCommit,
    private readonly workers?: SqliteReadWorkers,
  ) {
    this.lists = new SqliteUserList(db);
  }

  /** Prepared on first use, once the migrations have made the tables they read. */
  private get statements() {
    return (this.prepared ??= prepareStatements(this.db));
  }

  async insert(user: User, audit?: AuditRecord, issued?: PreparedActionToken): Promise<void> {
    if (!issued) {
      writeWithAudit(this.db, audit, (tx) => tx.insert(users).values(user).run().changes > 0);
      return;
    }
    this.db.transaction(
      (tx) => {
        tx.insert(users).values(user).run();
        insertActionToken(tx, issued.token, issued.mail);
        if (audit) appendAuditEvent(tx, audit);
      },
      { behavior: 'immediate' },
    );
  }

  async insertMany(batch: readonly User[]): Promise<void> {
    // One transaction: all or none, and one commit (one fsync) for the whole batch.
    this.db.transaction((tx) => {
      for (const rows of chunks(batch, ROWS_PER_INSERT)) tx.insert(users).values(rows).run();
    });
  }

  async findById(id: string): Promise<User | null> {
    return currentUser(this.db, id);
  }

  async findByEmail(email: string): Promise<User | null> {
    return this.statements.findByEmail.get({ email }) ?? null;
  }

  async list(query: UserListQuery): Promise<UserPage> {
    const reply =
      this.lists.list(query, this.searches, this.workers !== undefined) ?? (await this.workers!.list(query));
    return this.remember(reply);
  }

  private remember({ page, found }: ListReply): UserPage {
    if (found) this.searches.set(found.term, found.generation, found.matches);
    return page;
  }

  // Each change runs in an IMMEDIATE transaction: it takes the database's write lock before it
  // reads, so no other connection or process writes between the read and the write. Changes that
  // arrive together share that transaction and its commit, each in a savepoint of its own (see
  // SqliteGroupCommit). Its callback is synchronous, as better-sqlite3 requires.
  async update(id: string, change: (current: User) => UserWrite): Promise<User | null> {
    return this.writes.run((tx) => {
      const current = currentUser(tx, id);
      return current ? writeUser(tx, current, change(current)) : null;
    });
  }

  /** The token's use and the change in one transaction: a change that throws rolls the use back. */
  async redeem(
    purpose: ActionPurpose | readonly ActionPurpose[],
    digests: readonly string[],
    now: Date,
    change: (current: User, token: ActionToken) => UserWrite,
  ): Promise<User | null> {
    if (digests.length === 0) return null;
    return this.db.transaction(
      (tx) => {
        const token = useToken(tx, purpose, digests, now).get();
        const current = token && currentUser(tx, token.userId);
        return token && current ? writeUser(tx, current, change(current, token)) : null;
      },
      { behavior: 'immediate' },
    );
  }

  async delete(id: string, at: Date, check?: (current: User) => AuditRecord | undefined): Promise<boolean> {
    return this.db.transaction(
      (tx) => {
        const current = currentUser(tx, id);
        if (!current) return false;
        const audit = check?.(current);
        tx.delete(users).where(eq(users.id, id)).run();
        endSubjectSessions(tx, 'user', id, at);
        if (audit) appendAuditEvent(tx, audit);
        return true;
      },
      { behavior: 'immediate' },
    );
  }
}
