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
import { appendAuditEvent } from './postgres-audit-trail';
import type { PostgresDb, PostgresTx } from './postgres-db';
import { mailMessages } from './postgres-schema';

const { body: _body, bodyKey: _bodyKey, ...listedColumns } = getTableColumns(mailMessages);

/**
 * Queues `message` in the caller's transaction: what a repository's transaction calls to write a
 * message with the change that causes it (see MailQueue).
 */
export async function insertMail(tx: PostgresTx | PostgresDb, message: NewMail): Promise<void> {
  await tx.insert(mailMessages).values(newMailRow(message));
}

export class PostgresMailQueue implements MailQueue {
  constructor(private readonly db: PostgresDb) {}

  async enqueue(message: NewMail): Promise<void> {
    await insertMail(this.db, message);
  }

  /**
   * One UPDATE over the due rows its subquery locks, skipping those another claim holds: claims
   * racing on any instances take disjoint rows and never wait for each other.
   */
  async claim(now: Date, leaseUntil: Date, limit: number): Promise<ClaimedMail[]> {
    const due = this.db
      .select({ id: mailMessages.id })
      .from(mailMessages)
      .where(dueAt(mailMessages, now))
      .orderBy(...oldestDueFirst(mailMessages))
      .limit(limit)
      .for('update', { skipLocked: true });
    const rows = await this.db
      .update(mailMessages)
      .set(claimedColumns(mailMessages, leaseUntil))
      .where(inArray(mailMessages.id, due))
      .returning();
    return rows.map(claimedMail);
  }

  async settle(
    claim: Pick<ClaimedMail, 'id' | 'attempt'>,
    outcome: MailOutcome,
    audit?: AuditRecord,
  ): Promise<boolean> {
    return this.db.transaction(async (tx) => {
      const rows = await tx
        .update(mailMessages)
        .set(settledRow(claim.attempt, outcome))
        .where(heldBy(mailMessages, claim))
        .returning({ id: mailMessages.id });
      if (rows.length === 1 && audit) await appendAuditEvent(tx, audit);
      return rows.length === 1;
    });
  }

  // The total counts every message kept: the outbox is small next to the users, and the list is
  // an admin's occasional read.
  async list({ page, size }: { page: number; size: number }): Promise<MailPage> {
    const [messages, [counted]] = await Promise.all([
      this.db
        .select(listedColumns)
        .from(mailMessages)
        .orderBy(...newestFirst(mailMessages))
        .limit(size)
        .offset((page - 1) * size) as Promise<ListedMail[]>,
      this.db.select({ total: count() }).from(mailMessages),
    ]);
    return { messages, total: counted?.total ?? 0 };
  }

  async findById(id: string): Promise<MailMessage | null> {
    const [row] = await this.db.select().from(mailMessages).where(eq(mailMessages.id, id));
    return row ? mailMessage(row) : null;
  }
}
