import { ForbiddenError, ValidationError } from '../shared/errors';
import type { PasswordHasher } from '../shared/password-hasher';
import type { Identity } from '../sessions/auth-service';
import type { User, UserPatch } from './user';
import type { UserService } from './user-service';

/** Attributes a user may change on their own account; the rest belong to administrators. */
export const SELF_WRITABLE = ['name', 'metadata', 'password'] as const;
export const ADMIN_ONLY = ['email', 'app', 'active'] as const;

export interface SelfPatch {
  name?: string;
  metadata?: UserPatch['metadata'];
  password?: string;
  /** Required with `password`: proof that the holder of the token knows the account. */
  current_password?: string;
}

/** The admin-only attributes present in a self-service request, in a stable order. */
export function adminOnlyAttributes(attributes: object): string[] {
  return ADMIN_ONLY.filter((name) => name in attributes);
}

export interface SelfServiceDeps {
  users: UserService;
  hasher: PasswordHasher;
}

/** What a user may do to their own account with a user token. */
export class SelfService {
  constructor(private readonly deps: SelfServiceDeps) {}

  me(identity: Identity): Promise<User> {
    return this.deps.users.get(identity.subjectId);
  }

  /**
   * Changes name, metadata or password. Admin-only attributes are refused whole (nothing
   * changes); a password change needs the current password and ends the user's other sessions.
   */
  async update(identity: Identity, patch: SelfPatch & Record<string, unknown>): Promise<User> {
    const forbidden = adminOnlyAttributes(patch);
    if (forbidden.length > 0) throw new ForbiddenError(`Only an administrator can change ${forbidden.join(', ')}.`);
    const { current_password, ...changes } = patch;
    if (changes.password !== undefined) {
      const user = await this.me(identity);
      const proven = current_password !== undefined && (await this.deps.hasher.verify(current_password, user.passwordHash));
      if (!proven) {
        throw new ValidationError([
          { source: { pointer: '/data/attributes/current_password' }, detail: 'current_password is missing or wrong' },
        ]);
      }
    }
    return this.deps.users.update(identity.subjectId, changes, identity.sessionId);
  }
}
