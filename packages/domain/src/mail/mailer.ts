import { token } from '../shared/token.ts';

/** One rendered message on its way to the mail server. */
export interface OutgoingMail {
  /** The queued message's id: its Message-ID, so that a receiver can tell a repeat. */
  readonly id: string;
  readonly to: string;
  readonly subject: string;
  readonly text: string;
  readonly html: string;
}

/**
 * Why a delivery failed. permanent: the server refused this message for good (5xx), it is not
 * retried; transient: refused for now (4xx), retried with backoff; unreachable: the server could
 * not be reached or would not talk, whatever the message, so it is retried as soon as the server
 * answers again, and the attempt is not counted against it.
 */
export type MailFailure = 'permanent' | 'transient' | 'unreachable';

export class MailDeliveryError extends Error {
  constructor(
    readonly failure: MailFailure,
    /** Fit for an admin to read: never a credential. */
    reason: string,
  ) {
    super(reason);
  }
}

/** Hands messages to a mail server. Errors are MailDeliveryError; any other counts as transient. */
export interface Mailer {
  deliver(mail: OutgoingMail): Promise<void>;
  /** Resolves once the server answers and accepts the credentials: probing after it was unreachable. */
  check(): Promise<void>;
  /** Lets go of the connections it keeps open between messages: once the sender has stopped. */
  close(): void;
}
export const Mailer = token<Mailer>('Mailer');
