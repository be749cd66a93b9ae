import { token } from '../shared/token.ts';
import type { Admin } from './admin.ts';

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
}
export const AdminRepository = token<AdminRepository>('AdminRepository');
