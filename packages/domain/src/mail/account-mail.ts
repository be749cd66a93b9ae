import type { Clock } from '../shared/clock.ts';
import type { Logger } from '../shared/logger.ts';
import type { RateCounterRepository } from '../throttling/rate-counter.repository.ts';
import { NOTICE_KINDS, type MailKind, type MailValues, type NewMail } from './mail-message.ts';
import type { MailService } from './mail-service.ts';

/** The send limits of account mail, as the operator sets them. */
export interface AccountMailPolicy {
  /** Messages per hour, all recipients together (MAIL_HOURLY_LIMIT); notices are counted, never dropped. */
  hourlyLimit: number;
  /** Whether security notices (NOTICE_KINDS) are sent at all (SECURITY_NOTICES). */
  securityNotices: boolean;
}

export const DEFAULT_ACCOUNT_MAIL_POLICY: AccountMailPolicy = { hourlyLimit: 1000, securityNotices: true };

/** At most one message of each kind per recipient within this many seconds. */
export const PER_RECIPIENT_SECONDS = 60;
const HOUR_SECONDS = 3600;

export interface AccountMailDeps {
  mail: MailService;
  counters: RateCounterRepository;
  clock: Clock;
  logger: Logger;
  policy: AccountMailPolicy;
}

export interface AdmitOptions {
  /** See admit(): an attempt that did not finish admitted this message already. */
  retry?: boolean;
  /**
   * A message an admin asked for, to an address the admin chose (an invitation): dropped by
   * neither limit, as a notice is not, and counted all the same. The limits keep strangers from
   * mailing an address through the public endpoints; an admin route is no such door, and a
   * dropped invitation would leave its user with no link to get in.
   */
  byAdmin?: boolean;
}

/** Writes an admitted message: renders and seals it (MailService.compose); the flow then queues it in its own transaction. */
export type MailComposer<K extends MailKind> = (values: MailValues<K>) => Promise<NewMail>;

/**
 * The one door of account mail (verification, recovery, notices, invitations…): every flow asks
 * it before composing a message, so the send limits hold whichever flow sends.
 *
 * - At most one message of each kind per recipient per PER_RECIPIENT_SECONDS: a second one is
 *   skipped silently (mail bombing an address through the service is not possible).
 * - A global hourly budget (`hourlyLimit`): once spent, messages are skipped, with a warning that
 *   never names the address.
 * - Security notices (NOTICE_KINDS) are never dropped by either limit; `securityNotices: false`
 *   switches them off.
 *
 * Usage, for a message carrying a token:
 *
 *     const compose = await accountMail.admit('recovery', user.email);
 *     if (!compose) return; // skipped: issue no token either
 *     await actionTokens.issue('recovery', owner, (token) => compose({ email, link: accountLink(…, token) }));
 *
 * The counts live in the database (RateCounterRepository), shared by every instance.
 */
export class AccountMail {
  constructor(private readonly deps: AccountMailDeps) {}

  /**
   * Counts a message of `kind` to `recipient` (normalised already) against the limits and answers
   * what composes it, or null when it is not to be sent. A null asks the flow to do nothing more
   * and say nothing different: the skip is silent to the requester. `retry`: the message was
   * admitted before by an attempt that did not finish (a worker killed before it wrote), so the
   * per-recipient limit, which that attempt counted, must not skip it now.
   */
  async admit<K extends MailKind>(
    kind: K,
    recipient: string,
    { retry = false, byAdmin = false }: AdmitOptions = {},
  ): Promise<MailComposer<K> | null> {
    const { mail, counters, clock, logger, policy } = this.deps;
    const notice = NOTICE_KINDS.includes(kind);
    if (notice && !policy.securityNotices) return null;
    const now = clock.now();
    // A notice or an admin's message counts against the hourly budget, but neither limit drops it.
    const kept = notice || byAdmin;
    if (!kept && !retry) {
      const { count } = await counters.hit(`mail:${kind}:${recipient}`, now, PER_RECIPIENT_SECONDS);
      if (count > 1) {
        logger.debug('mail skipped: one of its kind went to the recipient within a minute', { kind });
        return null;
      }
    }
    const { count } = await counters.hit('mail:hourly', now, HOUR_SECONDS);
    if (!kept && count > policy.hourlyLimit) {
      logger.warn('mail skipped: the hourly mail budget (MAIL_HOURLY_LIMIT) is spent', { kind });
      return null;
    }
    return async (values) => {
      const message = await mail.compose(kind, recipient, values);
      // Said as the message is written with its change, by id and kind only: the body holds a
      // token. So a newcomer without SMTP_URL sees in the log that the outbox has something.
      logger.info('mail queued', { mailId: message.id, kind });
      return message;
    };
  }
}
