import type { AuditRecord } from '../audit/audit-event.ts';
import { token } from '../shared/token.ts';
import type { User } from '../users/user.ts';
import type { ImportEntry, ImportPlan } from './import-plan.ts';

/** Where an export has got to: the last user it wrote, in (created, id) order. */
export interface ExportCursor {
  created: Date;
  id: string;
}

/** Bulk reads and writes of users, for moving them in and out of the service. */
export interface UserImportRepository {
  /**
   * In one transaction: reads every stored user that shares an email or an id with an entry,
   * lets `decide` plan the batch, and (when `write`) carries the plan out: its inserts, its
   * updates, and the end of the sessions it names, revoked at `now`, with the audit event
   * `audit` makes of the plan (none when it answers null). A plan with a failure writes nothing.
   * Concurrent imports and API writes never leave a batch half-written.
   */
  importBatch(
    entries: readonly ImportEntry[],
    decide: (stored: readonly User[]) => ImportPlan,
    options: { write: boolean; now: Date; audit?: (plan: ImportPlan) => AuditRecord | null },
  ): Promise<ImportPlan>;
  /**
   * Up to `limit` users after `after` in (created, id) order, optionally only those whose email
   * contains a term (lower-cased already, as for `UserRepository.list`).
   */
  exportPage(after: ExportCursor | null, limit: number, emailContains?: string): Promise<User[]>;
}
export const UserImportRepository = token<UserImportRepository>('UserImportRepository');
