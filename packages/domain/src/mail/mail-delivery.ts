import { SYSTEM } from '../audit/audit-event.ts';
import { auditRecord } from '../audit/audit-records.ts';
import { addSeconds, type Clock } from '../shared/clock.ts';
import type { IdGenerator } from '../shared/id-generator.ts';
import type { Logger } from '../shared/logger.ts';
import type { SecretBox } from '../secrets/secret-box.ts';
import {
  DEFAULT_MAIL_RETRY,
  failedAttempt,
  MAIL_ERROR_MAX_LENGTH,
  MAIL_LEASE_SECONDS,
  type ClaimedMail,
  openMailBody,
  type MailOutcome,
  type MailRetryPolicy,
} from './mail-message.ts';
import type { MailQueue } from './mail-queue.ts';
import { MailDeliveryError, type Mailer } from './mailer.ts';

export interface MailDeliveryDeps {
  queue: MailQueue;
  box: SecretBox;
  mailer: Mailer;
  clock: Clock;
  ids: IdGenerator;
  logger: Logger;
  retry?: MailRetryPolicy;
}

/** What one round of deliveries did. */
export interface DeliveryRound {
  claimed: number;
  delivered: number;
  /** Some attempt found the mail server unreachable: wait until it answers before the next round. */
  unreachable: boolean;
}

/** One sender's work: claim the messages that are due, deliver them at once, record each attempt. */
export class MailDelivery {
  constructor(private readonly deps: MailDeliveryDeps) {}

  /** Claims up to `limit` due messages and attempts them concurrently; each outcome is recorded. */
  async deliverDue(limit: number): Promise<DeliveryRound> {
    const now = this.deps.clock.now();
    const claimed = await this.deps.queue.claim(now, addSeconds(now, MAIL_LEASE_SECONDS), limit);
    const outcomes = await Promise.all(claimed.map((claim) => this.attempt(claim)));
    return {
      claimed: claimed.length,
      delivered: outcomes.filter((outcome) => outcome.status === 'delivered').length,
      unreachable: outcomes.some((outcome) => outcome.status === 'queued' && !outcome.counted),
    };
  }

  private async attempt(claim: ClaimedMail): Promise<MailOutcome> {
    const { queue, box, mailer, clock, logger } = this.deps;
    let outcome: MailOutcome;
    try {
      const body = await openMailBody(box, claim.body, claim.id);
      await mailer.deliver({ id: claim.id, to: claim.recipient, subject: claim.subject, ...body });
      outcome = { status: 'delivered', at: clock.now() };
    } catch (error) {
      outcome = this.failure(claim, error);
    }
    const fields = { mailId: claim.id, kind: claim.kind, attempt: claim.attempt };
    if (!(await queue.settle(claim, outcome, this.settledEvent(claim, outcome)))) {
      logger.warn('mail attempt outlived its lease; another sender took the message over', fields);
    } else if (outcome.status === 'delivered') {
      logger.info('mail delivered', fields);
    } else if (outcome.status === 'queued') {
      logger.warn('mail attempt failed; will retry', {
        ...fields,
        error: outcome.error,
        nextAttemptAt: outcome.nextAttemptAt,
      });
    } else {
      logger.error('mail failed for good', { ...fields, error: outcome.error });
    }
    return outcome;
  }

  /** The audit event of a message settled for good: delivered or failed, by id, never its recipient. */
  private settledEvent(claim: ClaimedMail, outcome: MailOutcome) {
    if (outcome.status === 'queued') return undefined;
    const { ids, clock } = this.deps;
    const action = outcome.status === 'delivered' ? 'mail.delivered' : 'mail.failed';
    return auditRecord(ids.next(), clock.now(), SYSTEM, action, { type: 'mail-messages', id: claim.id });
  }

  private failure(claim: ClaimedMail, error: unknown): MailOutcome {
    const now = this.deps.clock.now();
    const known = error instanceof MailDeliveryError ? error : null;
    const reason = known?.message ?? `unexpected: ${(error as Error)?.message ?? String(error)}`;
    if (known?.failure === 'unreachable') {
      // Not the message's fault: due again at once, and the sender waits for the server instead.
      return { status: 'queued', nextAttemptAt: now, error: reason.slice(0, MAIL_ERROR_MAX_LENGTH), counted: false };
    }
    const permanent = known?.failure === 'permanent';
    return failedAttempt(claim.attempt, { permanent, error: reason }, now, this.deps.retry ?? DEFAULT_MAIL_RETRY);
  }
}
