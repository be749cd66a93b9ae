import type { Logger, WebhookDeliveryWorker, WebhookDispatcher } from '@uas/domain';
import { type BackgroundLoop, startBackgroundLoop } from './background-loop';

/**
 * Deliveries one round claims and attempts at once; a round that claimed a full batch is followed
 * at once by the next, so a backlog goes out as fast as the receivers answer.
 */
const WEBHOOK_CONCURRENCY = 64;

/** The longest wait between rounds while they keep failing. */
const FAILURE_WAIT_MAX_MS = 5_000;

export interface WebhookWorkerOptions {
  dispatcher: WebhookDispatcher;
  worker: WebhookDeliveryWorker;
  logger: Logger;
  /** The wait after a round that found nothing to do: how long an event waits at most before it is sent. */
  pollMs?: number;
  /** Called after each round: where the metrics read the backlog. */
  afterRound?: () => Promise<void>;
}

/**
 * The loop every instance runs: turn new audit events into deliveries, then send what is due.
 * Both share their work with the other instances through the database (see
 * WebhookDeliveryRepository), so each event reaches each endpoint once per attempt.
 */
export function startWebhookWorker({
  dispatcher,
  worker,
  logger,
  pollMs = 100,
  afterRound,
}: WebhookWorkerOptions): BackgroundLoop {
  // Rounds that failed in a row (the database unreachable, say): one line for the streak, and
  // waits that grow to FAILURE_WAIT_MAX_MS, not ten lines a second.
  let failures = 0;
  return startBackgroundLoop(async ({ pause }) => {
    try {
      const read = await dispatcher.dispatchAll();
      const claimed = await worker.deliverDue(WEBHOOK_CONCURRENCY);
      await afterRound?.();
      if (failures > 0) logger.info('the webhook worker reads its work again', { failedRounds: failures });
      failures = 0;
      if (read === 0 && claimed < WEBHOOK_CONCURRENCY) await pause(pollMs);
    } catch (error) {
      if (failures === 0)
        logger.warn('the webhook worker could not read its work', { error: (error as Error)?.message });
      failures += 1;
      await pause(Math.min(pollMs * 2 ** failures, FAILURE_WAIT_MAX_MS));
    }
  });
}
