import type { AuditRecord, Consumption, OpenIdRecord, OpenIdRecordDraft, OpenIdRecordRepository } from '@uas/domain';
import { liveRecord, recordKey } from '../shared/openid-record-conditions';
import { appendAuditEvent } from './postgres-audit-trail';
import type { PostgresDb } from './postgres-db';
import {
  consumeRecord,
  deleteExpiredRecords,
  deleteGrantRecords,
  recordColumns,
  selectAccountRecords,
  selectByUid,
} from './postgres-openid-record-statements';
import { openIdRecords } from './postgres-schema';

// `consume` is one UPDATE … WHERE consumed IS NULL: a racing UPDATE on another connection waits
// for the row's lock, then finds it consumed and changes nothing, so exactly one call wins.
export class PostgresOpenIdRecordRepository implements OpenIdRecordRepository {
  constructor(private readonly db: PostgresDb) {}

  async upsert(record: OpenIdRecordDraft): Promise<void> {
    // Everything but `consumed`, which only `consume` sets.
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
    const [row] = await selectByUid(this.db, model, uid, now);
    return row ?? null;
  }

  async consume(model: string, id: string, at: Date): Promise<Consumption> {
    const won = await consumeRecord(this.db, model, id, at);
    if (won.length > 0) return { outcome: 'consumed' };
    // A fresh snapshot: it sees the use that won, committed before this call's UPDATE found the row used.
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
      const removed = await deleteGrantRecords(tx, grantId);
      if (removed.length > 0 && audit) await appendAuditEvent(tx, audit);
      return removed.length;
    });
  }

  async listByAccount(model: string, accountId: string, now: Date): Promise<OpenIdRecord[]> {
    return selectAccountRecords(this.db, model, accountId, now);
  }

  async deleteExpired(now: Date, limit: number): Promise<number> {
    return (await deleteExpiredRecords(this.db, now, limit)).length;
  }
}
