import type { Logger, WebhookDeliveryWorker, WebhookDispatcher } from '@uas/domain';
import { wakeablePause } from './wakeable-pause';

/**
 * Deliveries one round claims and attempts at once; a round that claimed a full batch is followed
 * at once by the next, so a backlog goes out as fast as the receivers answer.
 */
const WEBHOOK_CONCURRENCY = 64;

export interface WebhookWorkerOptions {
  dispatcher: WebhookDispatcher;
  worker: WebhookDeliveryWorker;
  logger: Logger;
  /** The wait after a round that found nothing to do: how long an event waits at most before it is sent. */
  pollMs?: number;
  /** Called after each round: where the metrics read the backlog. */
  afterRound?: () => Promise<void>;
}

export interface WebhookWorker {
  /** Lets the attempts in progress finish (at most `graceMs`), then stops. */
  stop(graceMs: number): Promise<void>;
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
}: WebhookWorkerOptions): WebhookWorker {
  let stopped = false;
  const { pause, wake } = wakeablePause();
  const running = (async () => {
    while (!stopped) {
      try {
        const read = await dispatcher.dispatchAll();
        const claimed = await worker.deliverDue(WEBHOOK_CONCURRENCY);
        await afterRound?.();
        if (read === 0 && claimed < WEBHOOK_CONCURRENCY) await pause(pollMs);
      } catch (error) {
        logger.warn('the webhook worker could not read its work', { error: (error as Error)?.message });
        await pause(pollMs);
      }
    }
  })();
  return {
    async stop(graceMs) {
      stopped = true;
      wake();
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([running, new Promise<void>((resolve) => (timer = setTimeout(resolve, graceMs)))]);
      clearTimeout(timer);
    },
  };
}
