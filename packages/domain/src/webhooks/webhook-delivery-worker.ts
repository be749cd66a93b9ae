import type { SecretBox } from '../secrets/secret-box.ts';
import { addSeconds, type Clock } from '../shared/clock.ts';
import type { Logger } from '../shared/logger.ts';
import { DEFAULT_WEBHOOK_RETRY_SCHEDULE, FAILING_DISABLE_SECONDS, nextAttemptAt } from './delivery-schedule.ts';
import type {
  ClaimedWebhookDelivery,
  EndpointShare,
  WebhookAttemptOutcome,
  WebhookDeliveryRepository,
  WebhookSettlement,
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
  /**
   * Waited for before each write of settled attempts, so the attempts that end meanwhile share its
   * transaction (a few milliseconds against a write per attempt under load); none by default.
   */
  gather?: () => Promise<void>;
  /** Called with each settled attempt's outcome: the metrics' counters. */
  onOutcome?: (outcome: WebhookAttemptOutcome) => void;
}

/** A settled attempt waiting for the next write, and who waits to know whether it was recorded. */
interface QueuedSettlement {
  settlement: WebhookSettlement;
  recorded(held: boolean): void;
  lost(error: unknown): void;
}

/**
 * Claims due deliveries and attempts each one on its own: an attempt is recorded as soon as it
 * ends, so a receiver that hangs until the timeout holds back only its own deliveries. Attempts
 * that end while a write runs or gathers are recorded together by the next (one transaction for
 * many under load).
 */
export class WebhookDeliveryWorker {
  private readonly queued: QueuedSettlement[] = [];
  private writing = false;

  constructor(private readonly deps: WebhookDeliveryWorkerDeps) {}

  /** Claims up to `limit` due deliveries, each leased for one attempt, of each endpoint its room under `share`. */
  async claimDue(limit: number, share: EndpointShare): Promise<readonly ClaimedWebhookDelivery[]> {
    const now = this.deps.clock.now();
    return this.deps.deliveries.claim(now, addSeconds(now, WEBHOOK_LEASE_SECONDS), limit, share);
  }

  /** Sends one claimed delivery: how the attempt ended, not yet recorded. */
  async send(claim: ClaimedWebhookDelivery): Promise<WebhookSettlement> {
    return { claim, outcome: await this.attempt(claim) };
  }

  /** Records an attempt's outcome (with the others ending meanwhile), unless a later claim took the delivery over. */
  async record(settlement: WebhookSettlement): Promise<void> {
    const { claim, outcome } = settlement;
    const held = await new Promise<boolean>((recorded, lost) => {
      this.queued.push({ settlement, recorded, lost });
      void this.write();
    });
    const { logger } = this.deps;
    const fields = { deliveryId: claim.id, webhookId: claim.webhookId, attempt: claim.attempt };
    if (!held) logger.warn('webhook attempt outlived its lease; another worker took the delivery over', fields);
    else if (outcome.status !== 'succeeded') {
      logger.warn('webhook attempt failed', { ...fields, status: outcome.responseStatus, error: outcome.error });
    }
    if (held) this.deps.onOutcome?.(outcome);
  }

  /** Claims up to `limit` due deliveries and attempts them all, each recorded when it ends. Answers how many it claimed. */
  async deliverDue(limit: number): Promise<number> {
    const claimed = await this.claimDue(limit, { max: limit, inFlight: new Map() });
    await Promise.all(claimed.map(async (claim) => this.record(await this.send(claim))));
    return claimed.length;
  }

  /** Records every queued settlement, a batch a transaction, one write at a time. */
  private async write(): Promise<void> {
    if (this.writing) return;
    this.writing = true;
    try {
      while (this.queued.length > 0) {
        await this.deps.gather?.();
        const batch = this.queued.splice(0);
        try {
          const failingBefore = addSeconds(this.deps.clock.now(), -FAILING_DISABLE_SECONDS);
          const held = await this.deps.deliveries.settle(
            batch.map((queued) => queued.settlement),
            failingBefore,
          );
          for (const [n, queued] of batch.entries()) queued.recorded(held[n] ?? false);
        } catch (error) {
          for (const queued of batch) queued.lost(error);
        }
      }
    } finally {
      this.writing = false;
    }
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
