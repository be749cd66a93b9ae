import { inArray } from 'drizzle-orm';
import type { ClaimedMailRequest, MailRequest, MailRequestQueue, MailRequestSettlement } from '@uas/domain';
import {
  byAge,
  claimedMailRequest,
  claimedRequestColumns,
  dueRequestAt,
  heldRequest,
  newMailRequestRow,
  oldestRequestFirst,
} from '../shared/mail-request-rows';
import { appendAuditEvent } from './postgres-audit-trail';
import type { PostgresDb } from './postgres-db';
import { insertMail } from './postgres-mail-queue';
import { actionTokens, mailRequests } from './postgres-schema';

export class PostgresMailRequestQueue implements MailRequestQueue {
  constructor(private readonly db: PostgresDb) {}

  async record(request: MailRequest): Promise<void> {
    await this.db.insert(mailRequests).values(newMailRequestRow(request));
  }

  /**
   * One UPDATE over the due rows its subquery locks, skipping those another claim holds: claims
   * racing on any instances take disjoint rows and never wait for each other.
   */
  async claim(now: Date, leaseUntil: Date, limit: number): Promise<ClaimedMailRequest[]> {
    const due = this.db
      .select({ id: mailRequests.id })
      .from(mailRequests)
      .where(dueRequestAt(mailRequests, now))
      .orderBy(...oldestRequestFirst(mailRequests))
      .limit(limit)
      .for('update', { skipLocked: true });
    const rows = await this.db
      .update(mailRequests)
      .set(claimedRequestColumns(mailRequests, leaseUntil))
      .where(inArray(mailRequests.id, due))
      .returning();
    return rows.map(claimedMailRequest).sort(byAge);
  }

  async settle(settlements: readonly MailRequestSettlement[]): Promise<boolean[]> {
    return this.db.transaction(async (tx) => {
      const settled: boolean[] = [];
      for (const { claim, outcome = {} } of settlements) {
        const removed = await tx
          .delete(mailRequests)
          .where(heldRequest(mailRequests, claim))
          .returning({ id: mailRequests.id });
        settled.push(removed.length === 1);
        if (removed.length !== 1) continue;
        if (outcome.token) await tx.insert(actionTokens).values(outcome.token);
        if (outcome.mail) await insertMail(tx, outcome.mail);
        if (outcome.audit) await appendAuditEvent(tx, outcome.audit);
      }
      return settled;
    });
  }
}
