import { wakeablePause } from './wakeable-pause';

/** What a round may use: a pause that `stop` cuts short, and whether the loop was told to stop. */
export interface LoopControl {
  pause(ms: number): Promise<void>;
  stopped(): boolean;
}

export interface BackgroundLoop {
  /** Cuts the pause in progress short: there is work for the next round. */
  wake(): void;
  /** Lets the round in progress finish (at most `graceMs`), then starts no other. */
  stop(graceMs: number): Promise<void>;
}

/**
 * Runs `round` over and over until stopped: the loop behind each worker an instance runs. A round
 * handles its own errors (it decides how long to wait after one) and pauses through `control`.
 */
export function startBackgroundLoop(round: (control: LoopControl) => Promise<void>): BackgroundLoop {
  let stopped = false;
  const { pause, wake } = wakeablePause();
  const control: LoopControl = { pause, stopped: () => stopped };
  const running = (async () => {
    while (!stopped) await round(control);
  })();
  return {
    wake,
    async stop(graceMs) {
      stopped = true;
      wake();
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([running, new Promise<void>((resolve) => (timer = setTimeout(resolve, graceMs)))]);
      clearTimeout(timer);
    },
  };
}
