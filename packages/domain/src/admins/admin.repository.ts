import { token } from '../shared/token.ts';
import type { Admin } from './admin.ts';

export interface AdminRepository {
  insert(admin: Admin): Promise<void>;
  findById(id: string): Promise<Admin | null>;
  findByEmail(email: string): Promise<Admin | null>;
  /** The earliest-created admin: the one the key file describes. */
  findFirst(): Promise<Admin | null>;
  update(admin: Admin): Promise<Admin | null>;
}
export const AdminRepository = token<AdminRepository>('AdminRepository');
