import { ForbiddenError, InvalidTokenError } from '../shared/errors.ts';
import type { Identity } from '../shared/identity.ts';
import { roleAllows, type AdminPermission, type AdminRole } from './admin-roles.ts';

export interface AdminAccessDeps {
  /**
   * The admins' AuthService (sessions sit above admins, hence its one method here): signature,
   * session and account checks, and the admin's role read with the session.
   */
  auth: { authenticateWithRole(accessToken: string): Promise<{ identity: Identity; role: AdminRole | null }> };
}

/** The admin an access token speaks for, and their role as the store has it at this request. */
export interface AuthorizedAdmin {
  identity: Identity;
  role: AdminRole;
}

/**
 * The door of every admin operation: the token's session must be open, and the admin's role,
 * read from the store with the session on every request (so a change applies at the admin's next
 * request, on any instance), must hold the operation's permission.
 */
export class AdminAccess {
  constructor(private readonly deps: AdminAccessDeps) {}

  async authorize(accessToken: string, permission: AdminPermission): Promise<AuthorizedAdmin> {
    const { identity, role } = await this.deps.auth.authenticateWithRole(accessToken);
    if (!role) throw new InvalidTokenError();
    requirePermission(role, permission);
    return { identity, role };
  }
}

/**
 * Refuses (ForbiddenError) an admin whose role lacks `permission`: for a permission an operation
 * learns only from what it reads (see permissionToOpen), after authorize let the admin in.
 */
export function requirePermission(role: AdminRole, permission: AdminPermission): void {
  if (!roleAllows(role, permission)) {
    throw new ForbiddenError(`An administrator with the role ${role} cannot do this.`);
  }
}
