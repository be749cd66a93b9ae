import type { AuditRecord } from '../audit/audit-event.ts';
import type { NewMail } from '../mail/mail-message.ts';
import { token } from '../shared/token.ts';
import type { ActionPurpose, ActionToken, StoredActionToken } from './action-token.ts';

/**
 * Stores single-use tokens. A token is written in the transaction of the change that makes it,
 * with the message that carries it (see MailQueue); the store drops a user's tokens with the user.
 */
export interface ActionTokenRepository {
  /**
   * Stores `token` and queues `mail`, the message that carries it (none: the token is handed over
   * otherwise), with `audit` when given and the `notices` that go with it (an email change's to the
   * old address), in one transaction.
   */
  issue(
    token: StoredActionToken,
    mail: NewMail | null,
    audit?: AuditRecord,
    notices?: readonly NewMail[],
  ): Promise<void>;
  /** The token of `purpose` under one of `digests` if it is usable at `now`, without using it; null otherwise. */
  find(purpose: ActionPurpose, digests: readonly string[], now: Date): Promise<ActionToken | null>;
  /**
   * Uses the token of `purpose` stored under one of `digests`, if it is unused and unexpired at
   * `now`, in one statement: of any number of concurrent uses exactly one gets it. Null for a
   * wrong, used, voided or expired token alike.
   */
  consume(purpose: ActionPurpose, digests: readonly string[], now: Date): Promise<ActionToken | null>;
}
export const ActionTokenRepository = token<ActionTokenRepository>('ActionTokenRepository');
