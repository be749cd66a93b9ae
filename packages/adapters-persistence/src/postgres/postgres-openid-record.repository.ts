import { and, eq, getTableColumns, sql } from 'drizzle-orm';
import type { AuditRecord, Consumption, OpenIdRecord, OpenIdRecordDraft, OpenIdRecordRepository } from '@uas/domain';
import { expiredBefore, liveRecord, recordKey, unconsumed, unexpired } from '../shared/openid-record-conditions';
import { appendAuditEvent } from './postgres-audit-trail';
import type { PostgresDb, PostgresTx } from './postgres-db';
import { openIdRecords } from './postgres-schema';

/** A record's columns: the order it was first stored in is only for sorting. */
const { ord: _ord, ...recordColumns } = getTableColumns(openIdRecords);

/** Removes what the engine stored about a user, in the transaction deleting the user. */
export async function dropOpenIdRecordsOf(tx: PostgresTx, accountId: string): Promise<void> {
  await tx.delete(openIdRecords).where(eq(openIdRecords.accountId, accountId));
}

/** Removes what the engine stored for a client, in the transaction deleting the client. */
export async function dropOpenIdRecordsFor(tx: PostgresTx, clientId: string): Promise<void> {
  await tx.delete(openIdRecords).where(eq(openIdRecords.clientId, clientId));
}

// `consume` is one UPDATE … WHERE consumed IS NULL: a racing UPDATE on another connection waits
// for the row's lock, then finds it consumed and changes nothing, so exactly one call wins.
export class PostgresOpenIdRecordRepository implements OpenIdRecordRepository {
  constructor(private readonly db: PostgresDb) {}

  async upsert(record: OpenIdRecordDraft): Promise<void> {
    const { model: _model, id: _id, ...columns } = record;
    await this.db
      .insert(openIdRecords)
      .values(record)
      .onConflictDoUpdate({ target: [openIdRecords.model, openIdRecords.id], set: columns });
  }

  async find(model: string, id: string, now: Date): Promise<OpenIdRecord | null> {
    const [row] = await this.db
      .select(recordColumns)
      .from(openIdRecords)
      .where(liveRecord(openIdRecords, model, id, now));
    return row ?? null;
  }

  async findByUid(model: string, uid: string, now: Date): Promise<OpenIdRecord | null> {
    const [row] = await this.db
      .select(recordColumns)
      .from(openIdRecords)
      .where(and(eq(openIdRecords.model, model), eq(openIdRecords.uid, uid), unexpired(openIdRecords, now)))
      .limit(1);
    return row ?? null;
  }

  async consume(model: string, id: string, at: Date): Promise<Consumption> {
    const won = await this.db
      .update(openIdRecords)
      .set({ consumed: at })
      .where(unconsumed(openIdRecords, model, id))
      .returning({ id: openIdRecords.id });
    if (won.length > 0) return { outcome: 'consumed' };
    const [earlier] = await this.db
      .select({ consumed: openIdRecords.consumed })
      .from(openIdRecords)
      .where(recordKey(openIdRecords, model, id));
    return earlier?.consumed ? { outcome: 'already', at: earlier.consumed } : { outcome: 'missing' };
  }

  async destroy(model: string, id: string): Promise<void> {
    await this.db.delete(openIdRecords).where(recordKey(openIdRecords, model, id));
  }

  async revokeGrant(grantId: string, audit?: AuditRecord): Promise<number> {
    return this.db.transaction(async (tx) => {
      const removed = await tx
        .delete(openIdRecords)
        .where(eq(openIdRecords.grantId, grantId))
        .returning({ id: openIdRecords.id });
      if (removed.length > 0 && audit) await appendAuditEvent(tx, audit);
      return removed.length;
    });
  }

  async listByAccount(model: string, accountId: string, now: Date): Promise<OpenIdRecord[]> {
    return this.db
      .select(recordColumns)
      .from(openIdRecords)
      .where(and(eq(openIdRecords.model, model), eq(openIdRecords.accountId, accountId), unexpired(openIdRecords, now)))
      .orderBy(openIdRecords.ord);
  }

  async deleteExpired(now: Date, limit: number): Promise<number> {
    const batch = this.db
      .select({ model: openIdRecords.model, id: openIdRecords.id })
      .from(openIdRecords)
      .where(expiredBefore(openIdRecords, now))
      .limit(limit);
    const removed = await this.db
      .delete(openIdRecords)
      .where(sql`(${openIdRecords.model}, ${openIdRecords.id}) in ${batch}`)
      .returning({ id: openIdRecords.id });
    return removed.length;
  }
}
