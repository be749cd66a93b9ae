import type { Logger, MailRequestService } from '@uas/domain';

/** Requests resolved at once: one round claims this many and resolves them concurrently. */
const BATCH = 64;

/**
 * How long a recorded request lets others gather before the round that resolves it. Under load,
 * one round then takes the requests of many instead of each request interleaving a round of its
 * own (a claim and its writes) with the next requests; a message leaves this much later.
 */
const GATHER_MS = 50;

export interface MailRequestWorkerOptions {
  requests: MailRequestService;
  logger: Logger;
  /**
   * How long to wait for due requests after a round that found fewer than it could take. A
   * request recorded on this instance wakes the worker at once; the poll finds those recorded on
   * others, and those a dead instance's claim left (after their lease).
   */
  pollMs?: number;
}

export interface MailRequestWorker {
  /** Lets the round in progress finish (at most `graceMs`), then stops claiming. */
  stop(graceMs: number): Promise<void>;
}

/**
 * The worker every instance runs: resolves the requests of recover and resend (see
 * MailRequestService) off the request path, so the endpoints do the same work for every address,
 * and a recorded request survives a crash (another claim takes it over after its lease).
 */
export function startMailRequestWorker({
  requests,
  logger,
  pollMs = 2_000,
}: MailRequestWorkerOptions): MailRequestWorker {
  let stopped = false;
  // Set by a recorded request: the next pause lasts GATHER_MS only, so none waits for a poll.
  let kicked = false;
  let pauseTimer: NodeJS.Timeout | undefined;
  // Ends the pause in progress, if any.
  let endPause: (() => void) | undefined;
  const pause = (ms: number) =>
    new Promise<void>((resolve) => {
      if (stopped) return resolve();
      endPause = () => {
        clearTimeout(pauseTimer);
        endPause = undefined;
        resolve();
      };
      pauseTimer = setTimeout(endPause, kicked ? GATHER_MS : ms);
      pauseTimer.unref();
    });
  const unsubscribe = requests.onRecorded(() => {
    if (kicked) return;
    kicked = true;
    // A pause waiting for the poll now waits for the gathering only.
    if (!endPause) return;
    clearTimeout(pauseTimer);
    pauseTimer = setTimeout(endPause, GATHER_MS);
    pauseTimer.unref();
  });

  const running = (async () => {
    while (!stopped) {
      kicked = false;
      try {
        if ((await requests.resolveDue(BATCH)) < BATCH) await pause(pollMs);
      } catch (error) {
        logger.warn('the mail request worker could not read its queue', { error: (error as Error)?.message });
        await pause(pollMs);
      }
    }
  })();

  return {
    async stop(graceMs) {
      stopped = true;
      unsubscribe();
      endPause?.();
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([running, new Promise<void>((resolve) => (timer = setTimeout(resolve, graceMs)))]);
      clearTimeout(timer);
    },
  };
}
