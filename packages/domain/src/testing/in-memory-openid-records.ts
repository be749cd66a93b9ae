import type { AuditRecord } from '../audit/audit-event.ts';
import type { OpenIdRecord, OpenIdRecordDraft } from '../openid/openid-record.ts';
import type { Consumption, OpenIdRecordRepository } from '../openid/openid-record.repository.ts';
import type { SubjectKind } from '../shared/identity.ts';
import type { DroppedWithAccount } from './dropped-with-account.ts';
import type { InMemoryAuditTrail } from './in-memory-audit-trail.ts';

const keyOf = (model: string, id: string) => JSON.stringify([model, id]);
const live = (record: OpenIdRecord, now: Date) => record.expires === null || record.expires.getTime() > now.getTime();

/**
 * The OpenID engine's records in memory, in the order first stored (a replaced record keeps its
 * place, as a Map keeps a key's). Each check and its write run without an `await` in between,
 * which is the one statement or transaction the real stores make.
 */
export class InMemoryOpenIdRecordRepository implements OpenIdRecordRepository, DroppedWithAccount {
  readonly rows = new Map<string, OpenIdRecord>();

  constructor(private readonly audit: InMemoryAuditTrail) {}

  async upsert(record: OpenIdRecordDraft): Promise<void> {
    const key = keyOf(record.model, record.id);
    const consumed = this.rows.get(key)?.consumed ?? null;
    this.rows.set(key, structuredClone({ ...record, consumed }));
  }

  async find(model: string, id: string, now: Date): Promise<OpenIdRecord | null> {
    const row = this.rows.get(keyOf(model, id));
    return row && live(row, now) ? structuredClone(row) : null;
  }

  async findByUid(model: string, uid: string, now: Date): Promise<OpenIdRecord | null> {
    const row = [...this.rows.values()].find((r) => r.model === model && r.uid === uid && live(r, now));
    return row ? structuredClone(row) : null;
  }

  async consume(model: string, id: string, at: Date): Promise<Consumption> {
    const key = keyOf(model, id);
    const row = this.rows.get(key);
    if (!row) return { outcome: 'missing' };
    if (row.consumed) return { outcome: 'already', at: new Date(row.consumed) };
    this.rows.set(key, { ...row, consumed: at });
    return { outcome: 'consumed' };
  }

  async destroy(model: string, id: string): Promise<void> {
    this.rows.delete(keyOf(model, id));
  }

  async revokeGrant(grantId: string, audit?: AuditRecord): Promise<number> {
    const removed = this.dropWhere((row) => row.grantId === grantId);
    if (removed > 0 && audit) this.audit.appendNow(audit);
    return removed;
  }

  async listByAccount(model: string, accountId: string, now: Date): Promise<OpenIdRecord[]> {
    return [...this.rows.values()]
      .filter((row) => row.model === model && row.accountId === accountId && live(row, now))
      .map((row) => structuredClone(row));
  }

  async deleteExpired(now: Date, limit: number): Promise<number> {
    const expired = [...this.rows.entries()]
      .filter(([, row]) => row.expires !== null && row.expires.getTime() < now.getTime())
      .slice(0, Math.max(0, limit));
    for (const [key] of expired) this.rows.delete(key);
    return expired.length;
  }

  dropAccount(owner: SubjectKind, subjectId: string): void {
    if (owner === 'user') this.dropAccountRecords(subjectId);
  }

  /** Removes every record about a user at once (their sessions ended); answers how many went. */
  dropAccountRecords(accountId: string): number {
    return this.dropWhere((row) => row.accountId === accountId);
  }

  /** Removes every record of a deleted client, at once. */
  dropClient(clientId: string): void {
    this.dropWhere((row) => row.clientId === clientId);
  }

  private dropWhere(matches: (row: OpenIdRecord) => boolean): number {
    let removed = 0;
    for (const [key, row] of [...this.rows.entries()]) {
      if (matches(row)) {
        this.rows.delete(key);
        removed += 1;
      }
    }
    return removed;
  }
}
