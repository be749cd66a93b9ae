import { eq } from 'drizzle-orm';
import type {
  ActionPurpose,
  ActionToken,
  ActionTokenRepository,
  IssueExtras,
  NewMail,
  StoredActionToken,
  User,
  UserWrite,
} from '@uas/domain';
import type { SqliteDb } from './sqlite-db';
import { unsyncedWrite } from './sqlite-unsynced-write';
import { insertMail } from './sqlite-mail-queue';
import { users } from './sqlite-schema';
import { appendAuditEvent } from './sqlite-audit-trail';
import { insertActionToken, useToken } from './sqlite-action-token-statements';
import { writeUser } from './sqlite-user-write';

export class SqliteActionTokenRepository implements ActionTokenRepository {
  constructor(private readonly db: SqliteDb) {}

  /** Not flushed on its own (see unsyncedWrite): lost on power loss, with its message, it was never sent. */
  async issue(token: StoredActionToken, mail: NewMail, { notices = [], audit }: IssueExtras = {}): Promise<void> {
    unsyncedWrite(this.db, () =>
      this.db.transaction(
        (tx) => {
          insertActionToken(tx, token, mail);
          for (const notice of notices) insertMail(tx, notice);
          if (audit) appendAuditEvent(tx, audit);
        },
        { behavior: 'immediate' },
      ),
    );
  }

  /** One UPDATE … RETURNING: SQLite runs one writer at a time, so one use alone changes the row. */
  async consume(purpose: ActionPurpose, digests: readonly string[], now: Date): Promise<ActionToken | null> {
    if (digests.length === 0) return null;
    return useToken(this.db, [purpose], digests, now).get() ?? null;
  }

  /**
   * One IMMEDIATE transaction: the use, the read of the user and its write. A change that throws,
   * or a write the unique email refuses, rolls the use back with it.
   */
  async redeem(
    purposes: readonly ActionPurpose[],
    digests: readonly string[],
    now: Date,
    change: (token: ActionToken, current: User) => UserWrite,
  ): Promise<User | null> {
    if (digests.length === 0) return null;
    return this.db.transaction(
      (tx) => {
        const token = useToken(tx, purposes, digests, now).get();
        const current = token && tx.select().from(users).where(eq(users.id, token.userId)).get();
        return token && current ? writeUser(tx, change(token, current)) : null;
      },
      { behavior: 'immediate' },
    );
  }
}
