import { count, eq, getTableColumns, inArray } from 'drizzle-orm';
import type {
  AuditRecord,
  ClaimedMail,
  ListedMail,
  MailMessage,
  MailOutcome,
  MailPage,
  MailQueue,
  NewMail,
} from '@uas/domain';
import {
  claimedColumns,
  claimedMail,
  dueAt,
  heldBy,
  mailMessage,
  newestFirst,
  newMailRow,
  oldestDueFirst,
  settledRow,
} from '../shared/mail-rows';
import { appendAuditEvent } from './sqlite-audit-trail';
import type { SqliteDb } from './sqlite-db';
import { mailMessages } from './sqlite-schema';

const { body: _body, bodyKey: _bodyKey, ...listedColumns } = getTableColumns(mailMessages);

/**
 * Queues `message` in the caller's transaction: what a repository's synchronous transaction calls
 * to write a message with the change that causes it (see MailQueue).
 */
export function insertMail(tx: SqliteDb, message: NewMail): void {
  tx.insert(mailMessages).values(newMailRow(message)).run();
}

/** The ids of up to `limit` messages due at `now`, longest due first: what a claim takes. */
export function selectDue(db: SqliteDb, now: Date, limit: number) {
  return db
    .select({ id: mailMessages.id })
    .from(mailMessages)
    .where(dueAt(mailMessages, now))
    .orderBy(...oldestDueFirst(mailMessages))
    .limit(limit);
}

export class SqliteMailQueue implements MailQueue {
  constructor(private readonly db: SqliteDb) {}

  async enqueue(message: NewMail): Promise<void> {
    insertMail(this.db, message);
  }

  /** One UPDATE … RETURNING: SQLite runs one writer at a time, so no two claims share a row. */
  async claim(now: Date, leaseUntil: Date, limit: number): Promise<ClaimedMail[]> {
    const rows = this.db
      .update(mailMessages)
      .set(claimedColumns(mailMessages, leaseUntil))
      .where(inArray(mailMessages.id, selectDue(this.db, now, limit)))
      .returning()
      .all();
    return rows.map(claimedMail);
  }

  async settle(
    claim: Pick<ClaimedMail, 'id' | 'attempt'>,
    outcome: MailOutcome,
    audit?: AuditRecord,
  ): Promise<boolean> {
    return this.db.transaction(
      (tx) => {
        const held =
          tx.update(mailMessages).set(settledRow(claim.attempt, outcome)).where(heldBy(mailMessages, claim)).run()
            .changes === 1;
        if (held && audit) appendAuditEvent(tx, audit);
        return held;
      },
      { behavior: 'immediate' },
    );
  }

  // The total counts every message kept: the outbox is small next to the users, and the list is
  // an admin's occasional read.
  async list({ page, size }: { page: number; size: number }): Promise<MailPage> {
    const messages: ListedMail[] = this.db
      .select(listedColumns)
      .from(mailMessages)
      .orderBy(...newestFirst(mailMessages))
      .limit(size)
      .offset((page - 1) * size)
      .all();
    const [counted] = this.db.select({ total: count() }).from(mailMessages).all();
    return { messages, total: counted?.total ?? 0 };
  }

  async findById(id: string): Promise<MailMessage | null> {
    const row = this.db.select().from(mailMessages).where(eq(mailMessages.id, id)).get();
    return row ? mailMessage(row) : null;
  }
}
