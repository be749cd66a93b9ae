import type { AuditRecord } from '../audit/audit-event.ts';
import { token } from '../shared/token.ts';
import type { Admin } from './admin.ts';

/** What a change of an admin makes of it: its new state, and the event to record, if any. */
export interface AdminChange {
  admin: Admin;
  audit: AuditRecord | null;
}

export interface AdminRepository {
  insert(admin: Admin): Promise<void>;
  findById(id: string): Promise<Admin | null>;
  findByEmail(email: string): Promise<Admin | null>;
  /** The earliest-created admin: the one the key file describes. */
  findFirst(): Promise<Admin | null>;
  /**
   * Stores `admin`'s new state; with `endSessions`, every live session of the admin ends at
   * `admin.updated` in the same transaction (new credentials leave no session of the old ones).
   */
  update(admin: Admin, options?: { endSessions?: boolean }): Promise<Admin | null>;
  /** Every admin, earliest-created first. */
  list(): Promise<Admin[]>;
  /**
   * Replaces the admin by what `change` makes of its current state, with the event, in one
   * transaction; null when there is no such admin. LastOwnerError, and nothing written, when it
   * would take the role `owner` from the only owner: decided by the store under a lock, so two
   * owners demoting each other at once (on any instances) never leave none.
   */
  change(id: string, change: (current: Admin) => AdminChange): Promise<Admin | null>;
  /**
   * Removes the admin, ends its live sessions at `at` and appends what `audit` makes of it, in
   * one transaction; null when there is no such admin. LastOwnerError, and nothing written, for
   * the only owner, under the same lock as change().
   */
  remove(id: string, at: Date, audit: (removed: Admin) => AuditRecord): Promise<Admin | null>;
}
export const AdminRepository = token<AdminRepository>('AdminRepository');
