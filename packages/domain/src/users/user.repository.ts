import type { ActionPurpose, ActionToken, PreparedActionToken } from '../action-tokens/action-token.ts';
import type { AuditRecord } from '../audit/audit-event.ts';
import type { NewMail } from '../mail/mail-message.ts';
import { token } from '../shared/token.ts';
import type { ListedUser, User } from './user.ts';

export interface UserListQuery {
  /** 1-based page number. */
  page: number;
  size: number;
  /**
   * Substring of the email, lower-cased already (`emailSearchTerm`), as stored emails are; `%`, `_`
   * and `\` are literal characters.
   */
  emailContains?: string;
}

export interface UserPage {
  users: ListedUser[];
  /** Number of users matching the query across all pages. */
  total: number;
}

/** What a change, decided against the stored user, writes in its transaction. */
export interface UserWrite {
  user: User;
  /** Also ends every session of the user (but the one kept), in the same transaction. */
  endSessions?: { keepSessionId?: string };
  /** The audit event of the change, appended to the trail in the same transaction. */
  audit?: AuditRecord;
  /** Also voids every unused single-use token of the user (marks it used), in the same transaction. */
  voidTokens?: boolean;
  /** A message the change causes (a security notice), queued in the same transaction. */
  mail?: NewMail;
  /**
   * Also removes these identities of the user, each only if its provider still does not vouch for
   * its email, each removal with its audit event, in the same transaction (a recovery).
   */
  unlinkUnvouched?: readonly { identityId: string; audit: AuditRecord }[];
}

/**
 * Stores users. Emails arrive normalised; the store must refuse a second user with the same
 * email (EmailTakenError), also under concurrent writes. "Not found" is `null` or `false`.
 */
export interface UserRepository {
  /**
   * Stores a new user and, in the same transaction, its audit event and a token of it with the
   * message that carries it (a sign-up's verification).
   */
  insert(user: User, audit?: AuditRecord, issued?: PreparedActionToken): Promise<void>;
  /** Inserts every user or, when one is refused (EmailTakenError), none: the bulk path. */
  insertMany(users: readonly User[]): Promise<void>;
  findById(id: string): Promise<User | null>;
  findByEmail(email: string): Promise<User | null>;
  /**
   * Ordered by `created` ascending, then `id`. The total is exact, and its cost must not grow
   * with the table when there is no search.
   */
  list(query: UserListQuery): Promise<UserPage>;
  /**
   * Reads the user and writes what `change` decides from it, so that no other write lands between
   * the read and the write: in one transaction that holds the row, or (a write of the row and its
   * event alone) by writing only if the row is still as read, reading again otherwise. `change`
   * may so run more than once, and must do nothing but answer; when it throws, nothing is written
   * and the error propagates. Answers the stored record, or null when there is no such user.
   */
  update(id: string, change: (current: User) => UserWrite): Promise<User | null>;
  /**
   * Uses the token of `purpose` under one of `digests` if it is usable at `now` (as
   * ActionTokenRepository.consume: of concurrent uses exactly one gets it) and, in the same
   * transaction, writes what `change` decides for its owner (as update()). When `change` throws,
   * nothing is written and the token stays usable. Null, nothing written, when no token is usable.
   */
  redeem(
    purpose: ActionPurpose | readonly ActionPurpose[],
    digests: readonly string[],
    now: Date,
    change: (current: User, token: ActionToken) => UserWrite,
  ): Promise<User | null>;
  /**
   * Deletes the user and ends every session of it at `at`, in one transaction; `check` sees the
   * row first and may refuse by throwing, or answer the deletion's audit event, which is appended
   * in that transaction. False when there is no such user.
   */
  delete(id: string, at: Date, check?: (current: User) => AuditRecord | undefined): Promise<boolean>;
}
export const UserRepository = token<UserRepository>('UserRepository');
