import { sql } from 'drizzle-orm';
import type { AuditRecord, Consumption, OpenIdRecord, OpenIdRecordDraft, OpenIdRecordRepository } from '@uas/domain';
import { liveRecord, recordKey } from '../shared/openid-record-conditions';
import { appendAuditEvent } from './sqlite-audit-trail';
import type { SqliteDb } from './sqlite-db';
import type { SqliteGroupCommit } from './sqlite-group-commit';
import {
  consumeRecord,
  deleteExpiredRecords,
  deleteGrantRecords,
  selectAccountRecords,
  selectByUid,
} from './sqlite-openid-record-statements';
import { preparedOnUse } from './prepared-on-use';
import { openIdRecords } from './sqlite-schema';

const param = (name: string) => sql.placeholder(name);

// The engine stores, finds and consumes records on every request of its flows: those statements
// are prepared once, and the writes join the group commit (see SqliteGroupCommit), so the requests
// arriving together share one fsync. `consume` is one UPDATE … WHERE consumed IS NULL under the
// write lock: of racing calls on any connection, exactly one changes the row.
export class SqliteOpenIdRecordRepository implements OpenIdRecordRepository {
  private readonly storing = preparedOnUse(() =>
    this.db
      .insert(openIdRecords)
      .values({
        model: param('model'),
        id: param('id'),
        // Bound as given (the encoders would fail on a null expiry): JSON text and epoch ms.
        payload: sql`${param('payload')}`,
        grantId: param('grantId'),
        uid: param('uid'),
        accountId: param('accountId'),
        clientId: param('clientId'),
        expires: sql`${param('expires')}`,
      })
      // Everything but `consumed`, which only `consume` sets.
      .onConflictDoUpdate({
        target: [openIdRecords.model, openIdRecords.id],
        set: {
          payload: sql`excluded.payload`,
          grantId: sql`excluded.grant_id`,
          uid: sql`excluded.uid`,
          accountId: sql`excluded.account_id`,
          clientId: sql`excluded.client_id`,
          expires: sql`excluded.expires`,
        },
      })
      .prepare(),
  );
  private readonly byKey = preparedOnUse(() =>
    this.db
      .select()
      .from(openIdRecords)
      .where(liveRecord(openIdRecords, param('model'), param('id'), param('now')))
      .prepare(),
  );
  private readonly byUid = preparedOnUse(() =>
    selectByUid(this.db, param('model'), param('uid'), param('now')).prepare(),
  );
  private readonly consumption = preparedOnUse(() =>
    consumeRecord(this.db, param('model'), param('id'), param('at')).prepare(),
  );
  private readonly consumedAt = preparedOnUse(() =>
    this.db
      .select({ consumed: openIdRecords.consumed })
      .from(openIdRecords)
      .where(recordKey(openIdRecords, param('model'), param('id')))
      .prepare(),
  );

  constructor(
    private readonly db: SqliteDb,
    private readonly writes: SqliteGroupCommit,
  ) {}

  async upsert(record: OpenIdRecordDraft): Promise<void> {
    const row = { ...record, payload: JSON.stringify(record.payload), expires: record.expires?.getTime() ?? null };
    await this.writes.run(() => this.storing().run(row));
  }

  async find(model: string, id: string, now: Date): Promise<OpenIdRecord | null> {
    return this.byKey().get({ model, id, now: now.getTime() }) ?? null;
  }

  async findByUid(model: string, uid: string, now: Date): Promise<OpenIdRecord | null> {
    return this.byUid().get({ model, uid, now: now.getTime() }) ?? null;
  }

  async consume(model: string, id: string, at: Date): Promise<Consumption> {
    return this.writes.run((): Consumption => {
      if (this.consumption().run({ model, id, at: at.getTime() }).changes > 0) return { outcome: 'consumed' };
      const earlier = this.consumedAt().get({ model, id });
      return earlier?.consumed ? { outcome: 'already', at: earlier.consumed } : { outcome: 'missing' };
    });
  }

  async destroy(model: string, id: string): Promise<void> {
    await this.writes.run((tx) =>
      tx
        .delete(openIdRecords)
        .where(recordKey(openIdRecords, model, id))
        .run(),
    );
  }

  async revokeGrant(grantId: string, audit?: AuditRecord): Promise<number> {
    return this.writes.run((tx) => {
      const removed = deleteGrantRecords(tx, grantId).run().changes;
      if (removed > 0 && audit) appendAuditEvent(tx, audit);
      return removed;
    });
  }

  async listByAccount(model: string, accountId: string, now: Date): Promise<OpenIdRecord[]> {
    return selectAccountRecords(this.db, model, accountId, now).all();
  }

  async deleteExpired(now: Date, limit: number): Promise<number> {
    return deleteExpiredRecords(this.db, now, limit).run().changes;
  }
}
