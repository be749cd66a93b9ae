import type { AdminRole } from './admin-roles.ts';

/** How long an administrator's invitation link works: 48 hours. */
export const ADMIN_INVITATION_LIFETIME_SECONDS = 48 * 60 * 60;

/**
 * An owner's invitation of an address to become an administrator with a role. Single use and
 * bound to the address: accepting it makes the admin with that address, and `used` is set; a
 * withdrawal sets it too. Pending while unused and unexpired.
 */
export interface AdminInvitation {
  readonly id: string;
  readonly email: string;
  /** The name the new admin gets; '' for none. */
  readonly name: string;
  readonly role: AdminRole;
  /** The owner who invited; null when the service itself did (the operator CLI). */
  readonly invitedBy: string | null;
  readonly created: Date;
  readonly expires: Date;
  /** When it was accepted or withdrawn; null while pending. */
  readonly used: Date | null;
}

/** An invitation as stored: with the keyed digest of its token (TokenKeys), never the token. */
export interface StoredAdminInvitation extends AdminInvitation {
  readonly digest: string;
}

/** What an owner supplies to invite an administrator. */
export interface NewAdminInvitation {
  email: string;
  name?: string;
  role: AdminRole;
}

/** What an owner may change of another administrator. */
export interface AdminPatch {
  role?: AdminRole;
  name?: string;
}

/** Whether an invitation can still be accepted at `now`. */
export const isPendingAdminInvitation = (invitation: AdminInvitation, now: Date): boolean =>
  invitation.used === null && invitation.expires.getTime() > now.getTime();
