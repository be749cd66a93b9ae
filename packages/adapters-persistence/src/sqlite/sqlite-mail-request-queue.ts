import { and, eq, inArray, sql } from 'drizzle-orm';
import type {
  AuditRecord,
  ClaimedMailRequest,
  MailRequest,
  MailRequestQueue,
  MailRequestSettlement,
} from '@uas/domain';
import {
  byAge,
  claimedMailRequest,
  claimedRequestColumns,
  dueRequestAt,
  newMailRequestRow,
  oldestRequestFirst,
} from '../shared/mail-request-rows';
import { appendAuditEvents } from './sqlite-audit-trail';
import type { SqliteDb } from './sqlite-db';
import { unsyncedWrite } from './sqlite-unsynced-write';
import { preparedOnUse } from './prepared-on-use';
import { insertMail } from './sqlite-mail-queue';
import { actionTokens, mailRequests } from './sqlite-schema';

/** The insert of a request, every column a placeholder of the same name. */
const insertRequest = (db: SqliteDb) =>
  db
    .insert(mailRequests)
    .values({
      id: sql.placeholder('id'),
      kind: sql.placeholder('kind'),
      email: sql.placeholder('email'),
      created: sql.placeholder('created'),
      requestId: sql.placeholder('requestId'),
      clientAddress: sql.placeholder('clientAddress'),
      userAgent: sql.placeholder('userAgent'),
    })
    .prepare();

/** The removal of a request whose claim still holds: its id, at the attempt its claim made. */
const deleteHeld = (db: SqliteDb) =>
  db
    .delete(mailRequests)
    .where(and(eq(mailRequests.id, sql.placeholder('id')), eq(mailRequests.attempt, sql.placeholder('attempt'))))
    .prepare();

export class SqliteMailRequestQueue implements MailRequestQueue {
  // Every recover and resend records one, and a worker removes each: built and compiled once.
  private readonly insert = preparedOnUse(() => insertRequest(this.db));
  private readonly removeHeld = preparedOnUse(() => deleteHeld(this.db));

  constructor(private readonly db: SqliteDb) {}

  // Requests, their claims and their resolutions commit without their own fsync (see
  // unsyncedWrite): anyone may send them, and a power cut loses at most the last few, whole, before
  // their message was sent (the sender's claim of a message is flushed); its user asks again.
  async record(request: MailRequest): Promise<void> {
    unsyncedWrite(this.db, () => this.insert().run(newMailRequestRow(request)));
  }

  /** One UPDATE … RETURNING: SQLite runs one writer at a time, so no two claims share a row. */
  async claim(now: Date, leaseUntil: Date, limit: number): Promise<ClaimedMailRequest[]> {
    const due = this.db
      .select({ id: mailRequests.id })
      .from(mailRequests)
      .where(dueRequestAt(mailRequests, now))
      .orderBy(...oldestRequestFirst(mailRequests))
      .limit(limit);
    const rows = unsyncedWrite(this.db, () =>
      this.db
        .update(mailRequests)
        .set(claimedRequestColumns(mailRequests, leaseUntil))
        .where(inArray(mailRequests.id, due))
        .returning()
        .all(),
    );
    return rows.map(claimedMailRequest).sort(byAge);
  }

  async settle(settlements: readonly MailRequestSettlement[]): Promise<boolean[]> {
    return unsyncedWrite(this.db, () =>
      this.db.transaction(
        (tx) => {
          const audits: AuditRecord[] = [];
          const settled = settlements.map(({ claim, outcome = {} }) => {
            const removed = this.removeHeld().run(claim);
            if (removed.changes !== 1) return false;
            if (outcome.token) tx.insert(actionTokens).values(outcome.token).run();
            if (outcome.mail) insertMail(tx, outcome.mail);
            if (outcome.audit) audits.push(outcome.audit);
            return true;
          });
          // The round's events in one append: the chain's head read and moved once.
          appendAuditEvents(tx, audits);
          return settled;
        },
        { behavior: 'immediate' },
      ),
    );
  }
}
