import type { NewMail } from '../mail/mail-message.ts';
import { token } from '../shared/token.ts';
import type { AuditRecord } from '../audit/audit-event.ts';
import type { User } from '../users/user.ts';
import type { UserWrite } from '../users/user.repository.ts';
import type { ActionPurpose, ActionToken, StoredActionToken } from './action-token.ts';

/** What else an issue writes in its transaction: notices that go with the token, its audit event. */
export interface IssueExtras {
  readonly notices?: readonly NewMail[];
  readonly audit?: AuditRecord;
}

/**
 * Stores single-use tokens. A token is written in the transaction of the change that makes it,
 * with the message that carries it (see MailQueue); the store drops a user's tokens with the user.
 */
export interface ActionTokenRepository {
  /** Stores `token` and queues `mail`, the message that carries it, and `extras`, in one transaction. */
  issue(token: StoredActionToken, mail: NewMail, extras?: IssueExtras): Promise<void>;
  /**
   * Uses the token of `purpose` stored under one of `digests`, if it is unused and unexpired at
   * `now`, in one statement: of any number of concurrent uses exactly one gets it. Null for a
   * wrong, used, voided or expired token alike.
   */
  consume(purpose: ActionPurpose, digests: readonly string[], now: Date): Promise<ActionToken | null>;
  /**
   * Uses the token of one of `purposes` stored under one of `digests`, as consume does, and writes
   * what `change` decides from it and its user, in one transaction that holds the user's row:
   * when `change` throws or the write is refused (EmailTakenError), nothing is written and the
   * token stays usable. `change` runs synchronously. Answers the stored user, or null (nothing
   * written) for a wrong, used, voided or expired token alike.
   */
  redeem(
    purposes: readonly ActionPurpose[],
    digests: readonly string[],
    now: Date,
    change: (token: ActionToken, current: User) => UserWrite,
  ): Promise<User | null>;
}
export const ActionTokenRepository = token<ActionTokenRepository>('ActionTokenRepository');
