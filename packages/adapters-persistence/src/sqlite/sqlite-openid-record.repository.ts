import { and, eq, sql } from 'drizzle-orm';
import type { AuditRecord, Consumption, OpenIdRecord, OpenIdRecordDraft, OpenIdRecordRepository } from '@uas/domain';
import { expiredBefore, liveRecord, recordKey, unconsumed, unexpired } from '../shared/openid-record-conditions';
import { appendAuditEvent } from './sqlite-audit-trail';
import type { SqliteDb } from './sqlite-db';
import { preparedOnUse } from './prepared-on-use';
import { openIdRecords } from './sqlite-schema';

const IMMEDIATE = { behavior: 'immediate' } as const;
const param = (name: string) => sql.placeholder(name);

/** Removes what the engine stored about a user, in the transaction deleting the user. */
export function dropOpenIdRecordsOf(tx: SqliteDb, accountId: string): void {
  tx.delete(openIdRecords).where(eq(openIdRecords.accountId, accountId)).run();
}

/** Removes what the engine stored for a client, in the transaction deleting the client. */
export function dropOpenIdRecordsFor(tx: SqliteDb, clientId: string): void {
  tx.delete(openIdRecords).where(eq(openIdRecords.clientId, clientId)).run();
}

// The engine finds and consumes on every token request: those statements are prepared once.
// `consume` is one UPDATE … WHERE consumed IS NULL under the write lock: of racing calls on any
// connection, exactly one changes the row.
export class SqliteOpenIdRecordRepository implements OpenIdRecordRepository {
  private readonly byKey = preparedOnUse(() =>
    this.db
      .select()
      .from(openIdRecords)
      .where(liveRecord(openIdRecords, param('model'), param('id'), param('now')))
      .prepare(),
  );
  private readonly consumption = preparedOnUse(() =>
    this.db
      .update(openIdRecords)
      .set({ consumed: sql`${param('at')}` })
      .where(unconsumed(openIdRecords, param('model'), param('id')))
      .prepare(),
  );
  private readonly consumedAt = preparedOnUse(() =>
    this.db
      .select({ consumed: openIdRecords.consumed })
      .from(openIdRecords)
      .where(recordKey(openIdRecords, param('model'), param('id')))
      .prepare(),
  );

  constructor(private readonly db: SqliteDb) {}

  async upsert(record: OpenIdRecordDraft): Promise<void> {
    const { model: _model, id: _id, ...columns } = record;
    this.db
      .insert(openIdRecords)
      .values(record)
      .onConflictDoUpdate({ target: [openIdRecords.model, openIdRecords.id], set: columns })
      .run();
  }

  async find(model: string, id: string, now: Date): Promise<OpenIdRecord | null> {
    return this.byKey().get({ model, id, now: now.getTime() }) ?? null;
  }

  async findByUid(model: string, uid: string, now: Date): Promise<OpenIdRecord | null> {
    return (
      this.db
        .select()
        .from(openIdRecords)
        .where(and(eq(openIdRecords.model, model), eq(openIdRecords.uid, uid), unexpired(openIdRecords, now)))
        .get() ?? null
    );
  }

  async consume(model: string, id: string, at: Date): Promise<Consumption> {
    if (this.consumption().run({ model, id, at: at.getTime() }).changes > 0) return { outcome: 'consumed' };
    const earlier = this.consumedAt().get({ model, id });
    return earlier?.consumed ? { outcome: 'already', at: earlier.consumed } : { outcome: 'missing' };
  }

  async destroy(model: string, id: string): Promise<void> {
    this.db
      .delete(openIdRecords)
      .where(recordKey(openIdRecords, model, id))
      .run();
  }

  async revokeGrant(grantId: string, audit?: AuditRecord): Promise<number> {
    return this.db.transaction((tx) => {
      const removed = tx.delete(openIdRecords).where(eq(openIdRecords.grantId, grantId)).run().changes;
      if (removed > 0 && audit) appendAuditEvent(tx, audit);
      return removed;
    }, IMMEDIATE);
  }

  async listByAccount(model: string, accountId: string, now: Date): Promise<OpenIdRecord[]> {
    return this.db
      .select()
      .from(openIdRecords)
      .where(and(eq(openIdRecords.model, model), eq(openIdRecords.accountId, accountId), unexpired(openIdRecords, now)))
      .orderBy(sql`rowid`)
      .all();
  }

  async deleteExpired(now: Date, limit: number): Promise<number> {
    const batch = this.db
      .select({ rowid: sql`rowid` })
      .from(openIdRecords)
      .where(expiredBefore(openIdRecords, now))
      .limit(limit);
    return this.db.delete(openIdRecords).where(sql`rowid in ${batch}`).run().changes;
  }
}
