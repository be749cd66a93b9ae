import type { JsonObject } from '../shared/json.ts';

/**
 * An admin's invitation of an address: its user exists from the start, without a password (so no
 * login opens it), until the invitee sets one through the mailed link. Pending while `accepted`
 * is null; a revoked invitation is gone, with its user.
 */
export interface Invitation {
  readonly id: string;
  /** The invited account: made with the invitation, without a password. */
  readonly userId: string;
  /** The admin who invited; null when the service itself did. */
  readonly invitedBy: string | null;
  readonly created: Date;
  /** When the last message went out: at creation, then at every resend. */
  readonly sent: Date;
  /** When the link of the last message stops working. */
  readonly expires: Date;
  /** When the invitee set a password; null while pending. */
  readonly accepted: Date | null;
}

/** An invitation with the address and name of its user, as the admin list shows it. */
export interface ListedInvitation extends Invitation {
  readonly email: string;
  readonly name: string;
}

/** What an admin supplies to invite someone: as a new user, without a password. */
export interface NewInvitation {
  email: string;
  name?: string;
  metadata?: JsonObject;
  app?: JsonObject;
}

export interface InvitationPage {
  /** Oldest first: by `created`, then by id. */
  invitations: ListedInvitation[];
  /** How many invitations are pending. */
  total: number;
}
