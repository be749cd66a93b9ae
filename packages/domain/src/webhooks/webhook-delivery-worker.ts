import type { SecretBox } from '../secrets/secret-box.ts';
import { addSeconds, type Clock } from '../shared/clock.ts';
import type { Logger } from '../shared/logger.ts';
import { DEFAULT_WEBHOOK_RETRY_SCHEDULE, FAILING_DISABLE_SECONDS, nextAttemptAt } from './delivery-schedule.ts';
import type {
  ClaimedWebhookDelivery,
  WebhookAttemptOutcome,
  WebhookDeliveryRepository,
} from './webhook-delivery.repository.ts';
import { WebhookSendError, type WebhookResponse, type WebhookSender } from './webhook-sender.ts';

/**
 * How long a claim lasts: a worker that died mid-attempt leaves the delivery to another after
 * this. Longer than an attempt can take (the sender's timeout is 10 s).
 */
export const WEBHOOK_LEASE_SECONDS = 30;

/** Longest `last_error` kept. */
const ERROR_MAX_LENGTH = 500;

export interface WebhookDeliveryWorkerDeps {
  deliveries: WebhookDeliveryRepository;
  box: SecretBox;
  sender: WebhookSender;
  clock: Clock;
  logger: Logger;
  /** The waits between attempts, in seconds (WEBHOOK_RETRY_SCHEDULE). */
  schedule?: readonly number[];
  /** A number in [0, 1): the jitter's source. */
  random?: () => number;
  /** Called with each settled attempt's outcome: the metrics' counters. */
  onOutcome?: (outcome: WebhookAttemptOutcome) => void;
}

/** One worker's round: claim the due deliveries, send them at once, record each attempt. */
export class WebhookDeliveryWorker {
  constructor(private readonly deps: WebhookDeliveryWorkerDeps) {}

  /**
   * Claims up to `limit` due deliveries, attempts them concurrently, and records their outcomes
   * together (one transaction a round, not one an attempt). Answers how many it claimed.
   */
  async deliverDue(limit: number): Promise<number> {
    const { deliveries, clock, logger } = this.deps;
    const now = clock.now();
    const claimed = await deliveries.claim(now, addSeconds(now, WEBHOOK_LEASE_SECONDS), limit);
    if (claimed.length === 0) return 0;
    const settlements = await Promise.all(
      claimed.map(async (claim) => ({ claim, outcome: await this.attempt(claim) })),
    );
    const failingBefore = addSeconds(clock.now(), -FAILING_DISABLE_SECONDS);
    const held = await deliveries.settle(settlements, failingBefore);
    settlements.forEach(({ claim, outcome }, n) => {
      const fields = { deliveryId: claim.id, webhookId: claim.webhookId, attempt: claim.attempt };
      if (!held[n]) logger.warn('webhook attempt outlived its lease; another worker took the delivery over', fields);
      else if (outcome.status !== 'succeeded') {
        logger.warn('webhook attempt failed', { ...fields, status: outcome.responseStatus, error: outcome.error });
      }
      if (held[n]) this.deps.onOutcome?.(outcome);
    });
    return claimed.length;
  }

  private async attempt(claim: ClaimedWebhookDelivery): Promise<WebhookAttemptOutcome> {
    const { box, sender, clock } = this.deps;
    const started = clock.now();
    let response: WebhookResponse | null = null;
    let error: string | null = null;
    let permanent = false;
    try {
      const secrets = await Promise.all(
        claim.secrets.map((sealed) => box.open('webhook-secret', sealed, claim.webhookId)),
      );
      response = await sender.send({ url: claim.url, id: claim.id, timestamp: started, body: claim.payload, secrets });
    } catch (cause) {
      error = cause instanceof WebhookSendError ? cause.message : `unexpected: ${(cause as Error)?.message ?? cause}`;
      permanent = cause instanceof WebhookSendError && cause.permanent;
    }
    const at = clock.now();
    return this.outcome(claim.attempt, response, { error, permanent }, at, at.getTime() - started.getTime());
  }

  private outcome(
    attempt: number,
    response: WebhookResponse | null,
    { error, permanent }: { error: string | null; permanent: boolean },
    at: Date,
    durationMs: number,
  ): WebhookAttemptOutcome {
    const responseStatus = response?.status ?? null;
    const base = { responseStatus, durationMs, at, gone: responseStatus === 410 };
    if (responseStatus !== null && responseStatus >= 200 && responseStatus < 300) {
      return { ...base, status: 'succeeded', nextAttempt: null, error: null };
    }
    const reason = (error ?? `the receiver answered ${responseStatus}`).slice(0, ERROR_MAX_LENGTH);
    if (base.gone || permanent) return { ...base, status: 'failed', nextAttempt: null, error: reason };
    const next = nextAttemptAt(
      attempt,
      at,
      this.deps.schedule ?? DEFAULT_WEBHOOK_RETRY_SCHEDULE,
      this.deps.random ?? Math.random,
      response?.retryAfterSeconds ?? null,
    );
    return next === null
      ? { ...base, status: 'failed', nextAttempt: null, error: `gave up after ${attempt} attempts: ${reason}` }
      : { ...base, status: 'pending', nextAttempt: next, error: reason };
  }
}
