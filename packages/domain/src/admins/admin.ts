import type { AdminRole } from './admin-roles.ts';

/** An administrator who manages users through the admin API and panel, within their role. */
export interface Admin {
  readonly id: string;
  readonly name: string;
  readonly email: string;
  readonly passwordHash: string;
  /** What they may do (ADMIN_PERMISSIONS); the key file's admin is an owner. */
  readonly role: AdminRole;
  readonly created: Date;
  readonly updated: Date;
  /**
   * Identifies the key file whose credentials were last applied (device, inode and change times,
   * nothing derived from its content), so a start with that same file need not check its password
   * again. Null when unknown.
   */
  readonly keyFileStamp: string | null;
}

/** The credentials an operator keeps in the admin key file. */
export interface AdminCredentials {
  email: string;
  password: string;
  name?: string;
}
