import type { NewMail } from '../mail/mail-message.ts';

/** What a single-use token lets its holder do: each purpose has its own lifetime. */
export const ACTION_PURPOSES = ['verification', 'recovery', 'email_change', 'invitation'] as const;
export type ActionPurpose = (typeof ACTION_PURPOSES)[number];

/** How long a token of each purpose stays usable, in seconds (the *_TOKEN_TTL_SECONDS variables). */
export type ActionTokenLifetimes = Readonly<Record<ActionPurpose, number>>;

/**
 * A single-use token as stored: never the token itself, only its keyed digest (HMAC-SHA256 under
 * a `token-hmac` secret of the key ring), so a copy of the database links nothing.
 */
export interface ActionToken {
  readonly id: string;
  readonly purpose: ActionPurpose;
  /** The account it acts on. */
  readonly userId: string;
  /** The address it was sent to and is bound to (a new email, an invitee), when that matters. */
  readonly email: string | null;
  readonly created: Date;
  readonly expires: Date;
  /** When it was used, or voided by a change of the account's password or email; null while usable. */
  readonly used: Date | null;
}

export interface StoredActionToken extends ActionToken {
  /** base64url of the token's HMAC-SHA256 under the current `token-hmac` secret when it was made. */
  readonly digest: string;
}

/**
 * A token ready to be stored with the message that carries it (ActionTokenService.prepare): what
 * a flow hands to the write of the change that makes it, so both commit in its transaction.
 */
export interface PreparedActionToken {
  readonly token: StoredActionToken;
  readonly mail: NewMail;
}
