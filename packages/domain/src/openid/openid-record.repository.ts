import type { AuditRecord } from '../audit/audit-event.ts';
import { token } from '../shared/token.ts';
import type { OpenIdRecord, OpenIdRecordDraft } from './openid-record.ts';

/** What `consume` found: this call used it, it had been used before (and when), or there is no such record. */
export type Consumption = { outcome: 'consumed' } | { outcome: 'already'; at: Date } | { outcome: 'missing' };

/** Stores the OpenID engine's records (`openid_records`), shared by every instance. */
export interface OpenIdRecordRepository {
  /** Stores it, replacing the record of the same model and id (its `consumed` kept). */
  upsert(record: OpenIdRecordDraft): Promise<void>;
  /** The record, or null when there is none or it expired at `now`. */
  find(model: string, id: string, now: Date): Promise<OpenIdRecord | null>;
  /** The unexpired record of `model` with this uid. */
  findByUid(model: string, uid: string, now: Date): Promise<OpenIdRecord | null>;
  /**
   * Marks it used at `at`, only if it was not: of calls racing on any instances, exactly one
   * answers `consumed`. This is what makes a code or a rotated refresh token single-use.
   */
  consume(model: string, id: string, at: Date): Promise<Consumption>;
  destroy(model: string, id: string): Promise<void>;
  /**
   * Removes every record of the grant (the grant, its codes and tokens), with the event when
   * given, in one transaction; answers how many records went.
   */
  revokeGrant(grantId: string, audit?: AuditRecord): Promise<number>;
  /** The unexpired records of `model` about a user, oldest first: a user's grants, say. */
  listByAccount(model: string, accountId: string, now: Date): Promise<OpenIdRecord[]>;
  /** Removes up to `limit` records expired before `now`; answers how many. */
  deleteExpired(now: Date, limit: number): Promise<number>;
}
export const OpenIdRecordRepository = token<OpenIdRecordRepository>('OpenIdRecordRepository');
