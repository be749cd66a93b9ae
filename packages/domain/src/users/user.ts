import type { JsonObject } from '../shared/json.ts';

export type ActiveFlag = 0 | 1;

/** A stored user account. Records are immutable; rules return new ones. */
export interface User {
  readonly id: string;
  readonly name: string;
  /** Trimmed and lower-cased (see normalizeEmail), so a plain unique index is case-insensitive. */
  readonly email: string;
  readonly passwordHash: string;
  readonly metadata: JsonObject;
  readonly app: JsonObject;
  readonly active: ActiveFlag;
  readonly created: Date;
  readonly updated: Date;
  /**
   * 1 when created, one more at every change: what the HTTP ETag of the user says, so a client
   * can make a change conditional on the user being as it last saw it.
   */
  readonly version: number;
  /**
   * When the user last logged in, written in the transaction that opens the session. Not a change
   * of the user: it leaves `updated` and `version` (so the ETag) as they are, and a login never
   * makes an operator's conditional change fail.
   */
  readonly lastLogin: Date | null;
  /**
   * When the address was shown to be the user's (a verification link followed, or an admin's
   * word), or null while it is not. With EMAIL_VERIFICATION=required, an unverified user cannot log in.
   */
  readonly emailVerified: Date | null;
  /**
   * When an admin banned the user, or null while no ban was set (or since it was lifted). The ban
   * is in force until `bannedUntil` (see banInForce), forever when that is null; a ban whose end
   * has passed is over without anything being written.
   */
  readonly bannedAt: Date | null;
  readonly bannedUntil: Date | null;
  /** The admin's reason for the ban, shown to admins only; null exactly when `bannedAt` is. */
  readonly banReason: string | null;
}

/** A user as a list shows it: everything but the password hash, which no list reads. */
export type ListedUser = Omit<User, 'passwordHash'>;

/**
 * A user as the API shows it: with its failed logins within the throttling window, from any
 * address, and whether a ban is in force as it is read.
 */
export type ShownUser<T extends ListedUser = User> = T & {
  readonly recentFailedLogins: number;
  readonly banned: boolean;
};

/** What an admin states to ban a user: why, and until when (an ISO 8601 UTC time) or null for no end. */
export interface BanInput {
  reason: string;
  until: string | null;
}

/**
 * How a caller states the verification of an address: `true` verified (now, or since when it
 * already was), `false` not verified, or the time it was verified (ISO 8601 UTC).
 */
export type EmailVerifiedInput = boolean | string;

/** What a caller supplies to create a user. Only email and password are required. */
export interface NewUser {
  name?: string;
  email: string;
  password: string;
  metadata?: JsonObject;
  app?: JsonObject;
  active?: number;
  /** Verified now when absent: an admin's word. */
  emailVerified?: EmailVerifiedInput;
}

/** A partial update: an absent key keeps its current value. */
export interface UserPatch {
  name?: string;
  email?: string;
  password?: string;
  metadata?: JsonObject;
  app?: JsonObject;
  active?: number;
  emailVerified?: EmailVerifiedInput;
}
