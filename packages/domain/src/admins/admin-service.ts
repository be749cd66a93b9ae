import type { Clock } from '../shared/clock.ts';
import type { IdGenerator } from '../shared/id-generator.ts';
import type { PasswordHasher } from '../shared/password-hasher.ts';
import { ValidationError } from '../shared/errors.ts';
import { normalizeEmail, userAttributeIssues } from '../users/user.rules.ts';
import type { Admin, AdminCredentials } from './admin.ts';
import type { AdminRepository } from './admin.repository.ts';
import { KEY_FILE_ADMIN_ROLE } from './admin-roles.ts';

export const DEFAULT_ADMIN_NAME = 'Administrator';

export interface AdminServiceDeps {
  admins: AdminRepository;
  hasher: PasswordHasher;
  clock: Clock;
  ids: IdGenerator;
}

export class AdminService {
  constructor(private readonly deps: AdminServiceDeps) {}

  /**
   * Makes the stored admin match the key file: creates it on first start, and on later starts
   * resets its email and password to the file's. A reset ends the admin's sessions.
   * `keyFileStamp` identifies the file read (null when it may still change unseen): when it is the
   * stamp of the file last applied, the file is unchanged and its password is not checked again,
   * which would cost a bcrypt verification on every start. Its role is always `owner` afterwards.
   */
  async applyCredentials(credentials: AdminCredentials, keyFileStamp: string | null = null): Promise<Admin> {
    const { admins, hasher, clock, ids } = this.deps;
    const issues = userAttributeIssues({
      email: credentials.email,
      password: credentials.password,
      name: credentials.name,
    });
    if (issues.length > 0) throw new ValidationError(issues);
    const email = normalizeEmail(credentials.email);
    const now = clock.now();
    const current = await admins.findFirst();
    if (!current) {
      const admin: Admin = {
        id: ids.next(),
        name: credentials.name ?? DEFAULT_ADMIN_NAME,
        email,
        passwordHash: await hasher.hash(credentials.password),
        role: KEY_FILE_ADMIN_ROLE,
        created: now,
        updated: now,
        keyFileStamp,
      };
      await admins.insert(admin);
      return admin;
    }
    // The key file's admin is an owner: a role an owner gave it meanwhile ends at this start.
    const isOwner = current.role === KEY_FILE_ADMIN_ROLE;
    const asOwner = async (admin: Admin) =>
      (await admins.update({ ...admin, role: KEY_FILE_ADMIN_ROLE, keyFileStamp })) ?? admin;
    if (keyFileStamp !== null && current.keyFileStamp === keyFileStamp) return isOwner ? current : asOwner(current);
    const samePassword = await hasher.verify(credentials.password, current.passwordHash);
    const name = credentials.name ?? current.name;
    if (samePassword && current.email === email && current.name === name) {
      return current.keyFileStamp === keyFileStamp && isOwner ? current : asOwner(current);
    }
    const updated: Admin = {
      ...current,
      role: KEY_FILE_ADMIN_ROLE,
      name,
      email,
      passwordHash: samePassword ? current.passwordHash : await hasher.hash(credentials.password),
      updated: now,
      keyFileStamp,
    };
    await admins.update(updated, { endSessions: !samePassword || current.email !== email });
    return updated;
  }
}
