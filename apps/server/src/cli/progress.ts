import type { WriteStream } from 'node:tty';

/** Plain lines (not a TTY) come at most this often. */
const LINE_INTERVAL_MS = 5000;
/** The bar is redrawn at most this often. */
const BAR_INTERVAL_MS = 100;
const BAR_WIDTH = 24;

export interface Progress {
  /** `count` things done; `fraction` of the whole when it is known (bytes read of a file, say). */
  update(count: number, fraction?: number): void;
  done(count: number): void;
}

const clock = (seconds: number) =>
  Number.isFinite(seconds) ? `${Math.floor(seconds / 60)}:${String(Math.floor(seconds % 60)).padStart(2, '0')}` : '?';

/**
 * Progress of long work on stderr: a bar with count, rate and ETA on a terminal, a plain line
 * every few seconds otherwise (a log, a pipe), and nothing when `quiet`.
 */
export function createProgress(label: string, stream: NodeJS.WriteStream = process.stderr, quiet = false): Progress {
  const started = Date.now();
  const tty = (stream as WriteStream).isTTY === true;
  let last = 0;
  const rate = (count: number) => count / Math.max((Date.now() - started) / 1000, 0.001);
  const draw = (count: number, fraction: number | undefined, final: boolean) => {
    const perSecond = rate(count);
    if (!tty) {
      stream.write(
        `${label}: ${count.toLocaleString('en')} records, ${Math.round(perSecond).toLocaleString('en')}/s${final ? ', done' : ''}\n`,
      );
      return;
    }
    const share = final ? 1 : Math.min(fraction ?? 0, 1);
    const filled = Math.round(share * BAR_WIDTH);
    const elapsed = (Date.now() - started) / 1000;
    const eta = fraction ? elapsed / share - elapsed : Number.NaN;
    const bar = fraction === undefined && !final ? '' : `[${'#'.repeat(filled)}${'-'.repeat(BAR_WIDTH - filled)}] `;
    stream.write(
      `\r${bar}${label}: ${count.toLocaleString('en')} · ${Math.round(perSecond).toLocaleString('en')}/s · ETA ${final ? '0:00' : clock(eta)}\u001b[K${final ? '\n' : ''}`,
    );
  };
  return {
    update(count, fraction) {
      if (quiet) return;
      const now = Date.now();
      if (now - last < (tty ? BAR_INTERVAL_MS : LINE_INTERVAL_MS)) return;
      last = now;
      draw(count, fraction, false);
    },
    done(count) {
      if (!quiet) draw(count, 1, true);
    },
  };
}
