import type { Housekeeping } from '@uas/domain';
import type { Logger } from '@uas/domain';

/** How often expired sessions and old failed logins are removed. */
const INTERVAL_MS = 10 * 60 * 1000;

/** Runs housekeeping now and then every INTERVAL_MS; returns how to stop it. */
export function scheduleHousekeeping(housekeeping: Housekeeping, logger: Logger): () => void {
  const run = () =>
    housekeeping
      .run()
      .catch((error: unknown) => logger.warn('housekeeping failed', { error: (error as Error).message }));
  void run();
  const timer = setInterval(run, INTERVAL_MS);
  timer.unref();
  return () => clearInterval(timer);
}
