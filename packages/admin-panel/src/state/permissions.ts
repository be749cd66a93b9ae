import { type AdminPermission, type AdminRole, isAdminRole, roleAllows } from '@uas/domain';

/** Whether the signed-in admin may do what a control offers (the API refuses anyway). */
export type Can = (permission: AdminPermission) => boolean;

/**
 * The permissions of a role, read from the domain's one matrix. A role the panel does not know
 * (or none) allows nothing: the panel shows no control the API might refuse.
 */
export const permissionsOf =
  (role: string | null): Can =>
  (permission) =>
    isAdminRole(role) && roleAllows(role, permission);

export type { AdminPermission, AdminRole };
