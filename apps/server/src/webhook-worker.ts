import type { Logger, WebhookDeliveryWorker, WebhookDispatcher } from '@uas/domain';
import { type BackgroundLoop, startBackgroundLoop } from './background-loop';

/**
 * Attempts one instance keeps in flight. A slot that frees is filled by the next claim at once,
 * so a receiver that hangs until the timeout holds one slot, not every other endpoint's deliveries.
 * A slot frees when its outcome is recorded, not when the receiver answers: a sent attempt not yet
 * recorded is sent again after a crash, so the slots bound those too (when the writes lag behind
 * the receivers, hundreds piled up and a kill -9 sent them all twice).
 */
const WEBHOOK_CONCURRENCY = 64;

/**
 * Of those, the most one endpoint holds: a receiver that hangs (or is slow) takes half the slots
 * at most, the others' deliveries the rest. Half, not less: with one endpoint (the common case)
 * this bounds its whole concurrency: at 16, `bench:webhooks` drained its backlog at 16 % of the
 * ceiling, against 40 % at 32 (the same loaded machine).
 */
export const WEBHOOK_ENDPOINT_CONCURRENCY = 32;

/** The wait after a dispatch round that found events: short against the delivery's latency. */
const DISPATCH_PACE_MS = 10;

/** The longest wait between rounds while they keep failing. */
const FAILURE_WAIT_MAX_MS = 5_000;

export interface WebhookWorkerOptions {
  dispatcher: WebhookDispatcher;
  worker: WebhookDeliveryWorker;
  logger: Logger;
  /** The wait after a round that found nothing to do: how long an event waits at most before it is sent. */
  pollMs?: number;
  /** Called after each dispatch round: where the metrics read the backlog. */
  afterRound?: () => Promise<void>;
}

/**
 * A round that fails in a row with the others (the database unreachable, say) logs one line for
 * the streak and waits longer each time, up to FAILURE_WAIT_MAX_MS, not ten lines a second.
 */
function failureStreak(logger: Logger, what: string, pollMs: number) {
  let failures = 0;
  return {
    succeeded() {
      if (failures > 0) logger.info(`the webhook ${what} reads its work again`, { failedRounds: failures });
      failures = 0;
    },
    failed(error: unknown): number {
      if (failures === 0)
        logger.warn(`the webhook ${what} could not read its work`, { error: (error as Error)?.message });
      failures += 1;
      return Math.min(pollMs * 2 ** failures, FAILURE_WAIT_MAX_MS);
    },
  };
}

/**
 * The loops every instance runs: one turns new audit events into deliveries, the other keeps up
 * to WEBHOOK_CONCURRENCY attempts in flight (WEBHOOK_ENDPOINT_CONCURRENCY of one endpoint at
 * most), each recorded when it ends. Both share their work
 * with the other instances through the database (see WebhookDeliveryRepository), so each event
 * reaches each endpoint once per attempt.
 */
export function startWebhookWorker({
  dispatcher,
  worker,
  logger,
  pollMs = 100,
  afterRound,
}: WebhookWorkerOptions): BackgroundLoop {
  const inFlight = new Set<Promise<void>>();
  // Attempts in flight per endpoint: the share each claim leaves to the others.
  const ofEndpoint = new Map<string, number>();
  const share = { max: WEBHOOK_ENDPOINT_CONCURRENCY, inFlight: ofEndpoint };
  const started = (webhookId: string) => ofEndpoint.set(webhookId, (ofEndpoint.get(webhookId) ?? 0) + 1);
  const ended = (webhookId: string) => {
    const left = (ofEndpoint.get(webhookId) ?? 1) - 1;
    if (left === 0) ofEndpoint.delete(webhookId);
    else ofEndpoint.set(webhookId, left);
  };
  // The delivery loop waits for due deliveries (not for a free slot): new ones end its wait.
  let waiting = false;
  const delivering = failureStreak(logger, 'worker', pollMs);
  const deliveryLoop = startBackgroundLoop(async ({ pause }) => {
    const free = WEBHOOK_CONCURRENCY - inFlight.size;
    if (free === 0) {
      // Every slot taken: wait for one to free (or the poll, which a stop cuts short), then let
      // the others recorded meanwhile free theirs, so the next claim takes them together.
      await Promise.race([...inFlight, pause(pollMs)]);
      return new Promise((resolve) => setImmediate(resolve));
    }
    try {
      const claimed = await worker.claimDue(free, share);
      delivering.succeeded();
      for (const claim of claimed) {
        // The slot frees once the outcome is recorded (or its write failed).
        started(claim.webhookId);
        const sending: Promise<void> = worker
          .send(claim)
          .then((settlement) => worker.record(settlement))
          .catch((error) =>
            logger.warn('a webhook attempt could not be recorded; it is retried when its lease ends', {
              deliveryId: claim.id,
              error: (error as Error)?.message,
            }),
          )
          .finally(() => {
            inFlight.delete(sending);
            ended(claim.webhookId);
          });
        inFlight.add(sending);
      }
      if (claimed.length < free) {
        waiting = true;
        // An endpoint at its share may have more due: claim again as soon as an attempt ends (and
        // the others answered meanwhile, so the claim takes them together).
        const atShare = [...ofEndpoint.values()].some((count) => count >= WEBHOOK_ENDPOINT_CONCURRENCY);
        if (atShare) await Promise.race([...inFlight, pause(pollMs)]).then(() => new Promise(setImmediate));
        else await pause(pollMs);
        waiting = false;
      }
    } catch (error) {
      await pause(delivering.failed(error));
    }
  });

  const dispatching = failureStreak(logger, 'dispatcher', pollMs);
  const dispatchLoop = startBackgroundLoop(async ({ pause }) => {
    try {
      const read = await dispatcher.dispatchAll();
      await afterRound?.();
      dispatching.succeeded();
      // New deliveries are due at once: a delivery loop waiting for work claims them without
      // waiting its poll (one whose slots are all taken claims as they free).
      if (read > 0 && waiting) deliveryLoop.wake();
      // A round reads the trail to its end: the next, at once, would find a change or two and
      // take the database from the claims, so it waits a little even while changes keep coming.
      await pause(read === 0 ? pollMs : DISPATCH_PACE_MS);
    } catch (error) {
      await pause(dispatching.failed(error));
    }
  });

  return {
    wake: () => deliveryLoop.wake(),
    async stop(graceMs) {
      const deadline = Date.now() + graceMs;
      await Promise.all([dispatchLoop.stop(graceMs), deliveryLoop.stop(graceMs)]);
      // The attempts in flight finish within what is left of the grace; one that does not keeps its
      // lease, and another instance takes the delivery over when the lease ends.
      let timer: NodeJS.Timeout | undefined;
      const left = new Promise<void>((resolve) => (timer = setTimeout(resolve, Math.max(0, deadline - Date.now()))));
      const settled = Promise.allSettled([...inFlight]);
      await Promise.race([settled, left]);
      clearTimeout(timer);
    },
  };
}
