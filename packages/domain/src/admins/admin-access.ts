import { ForbiddenError, InvalidTokenError } from '../shared/errors.ts';
import type { Identity } from '../shared/identity.ts';
import type { Admin } from './admin.ts';
import type { AdminRepository } from './admin.repository.ts';
import { roleAllows, type AdminPermission } from './admin-roles.ts';

export interface AdminAccessDeps {
  /** The admins' AuthService (sessions sit above admins, hence its one method here): signature, session and account checks. */
  auth: { authenticate(accessToken: string): Promise<Identity> };
  admins: AdminRepository;
}

/** The admin an access token speaks for, as the store has them at this request. */
export interface AuthorizedAdmin {
  identity: Identity;
  admin: Admin;
}

/**
 * The door of every admin operation: the token's session must be open, and the admin's role,
 * read from the store on every request (so a change applies at the admin's next request, on any
 * instance), must hold the operation's permission.
 */
export class AdminAccess {
  constructor(private readonly deps: AdminAccessDeps) {}

  async authorize(accessToken: string, permission: AdminPermission): Promise<AuthorizedAdmin> {
    const identity = await this.deps.auth.authenticate(accessToken);
    const admin = await this.deps.admins.findById(identity.subjectId);
    if (!admin) throw new InvalidTokenError();
    requirePermission(admin, permission);
    return { identity, admin };
  }
}

/**
 * Refuses (ForbiddenError) an admin whose role lacks `permission`: for a permission an operation
 * learns only from what it reads (see permissionToOpen), after authorize let the admin in.
 */
export function requirePermission(admin: Admin, permission: AdminPermission): void {
  if (!roleAllows(admin.role, permission)) {
    throw new ForbiddenError(`An administrator with the role ${admin.role} cannot do this.`);
  }
}
