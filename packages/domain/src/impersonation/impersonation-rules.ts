import type { AdminRepository } from '../admins/admin.repository.ts';
import { roleAllows } from '../admins/admin-roles.ts';
import { ForbiddenError } from '../shared/errors.ts';
import type { Identity } from '../shared/identity.ts';
import { isStorableText } from '../shared/json.ts';
import { UNSTORABLE_TEXT } from '../users/user.rules.ts';

/**
 * How far an admin may act as a user: one access token of at most 15 minutes (or ACCESS_TOKEN_TTL
 * when shorter), never a refresh token, and a reason of at most `reasonMaxLength` characters.
 */
export const IMPERSONATION_RULES = {
  maxSeconds: 15 * 60,
  reasonMaxLength: 500,
} as const;

/** Why a reason is refused, or null: it must be non-blank storable text of limited length. */
export function impersonationReasonProblem(reason: unknown): string | null {
  if (typeof reason !== 'string' || reason.trim() === '') return 'reason is required: say why you act as this user';
  if (reason.length > IMPERSONATION_RULES.reasonMaxLength) {
    return `reason must be at most ${IMPERSONATION_RULES.reasonMaxLength} characters`;
  }
  return isStorableText(reason) ? null : `reason ${UNSTORABLE_TEXT}`;
}

/**
 * What holds the account itself (its password, email, second factors and recovery codes) stays
 * the user's: an impersonating admin cannot change it, so acting as a user never becomes owning
 * the account.
 */
export function refuseWhileImpersonated(identity: Identity, what: string): void {
  if (identity.impersonatorId !== undefined) {
    throw new ForbiddenError(`An impersonation session cannot change the account's ${what}.`);
  }
}

/**
 * Whether an admin may act through an impersonation session at this request: impersonation is on,
 * and the admin still exists with a role that allows it, as the store has them now.
 */
export function impersonatorCheck(admins: AdminRepository, enabled: boolean) {
  return async (adminId: string): Promise<boolean> => {
    if (!enabled) return false;
    const admin = await admins.findById(adminId);
    return admin !== null && roleAllows(admin.role, 'users.impersonate');
  };
}
