/** A pause a loop waits in between rounds, which its `stop` cuts short. */
export interface WakeablePause {
  /** Resolves after `ms`, or at once when `wake` is called. The timer keeps no process alive. */
  pause(ms: number): Promise<void>;
  wake(): void;
}

export function wakeablePause(): WakeablePause {
  let wake = () => {};
  return {
    pause: (ms) =>
      new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, ms);
        timer.unref();
        wake = () => {
          clearTimeout(timer);
          resolve();
        };
      }),
    wake: () => wake(),
  };
}
