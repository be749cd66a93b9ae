// What the benchmarks of the background workers (mail sender, webhook worker) share: reading
// their arguments, waiting for a queue to drain, and the figures they print.
import { cpus, loadavg } from 'node:os';

/** Longest wait for a queue to drain before the run is called failed. */
const DRAIN_TIMEOUT_MS = 120_000;

export const progress = (line: string) => process.stderr.write(`${line}\n`);

/** A whole-number argument within its bounds, or an error naming the option. */
export const whole = (text: string | undefined, name: string, min: number, max: number) => {
  const value = Number(text);
  if (!Number.isInteger(value) || value < min || value > max)
    throw new Error(`--${name} must be a whole number from ${min} to ${max}`);
  return value;
};

/** Resolves once `condition` holds; fails the run when it does not within DRAIN_TIMEOUT_MS. */
export async function until(condition: () => boolean, what: string): Promise<void> {
  const deadline = Date.now() + DRAIN_TIMEOUT_MS;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`${what}: not done within ${DRAIN_TIMEOUT_MS / 1000} s`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

export const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? 0;

/** One measure: its rate, and its latencies when it measured them. */
export interface Rate {
  perSecond: number;
  p50?: number;
  p99?: number;
}

/** A row of the results table; `ceiling`, when given, puts the rate beside it as a share. */
export const resultRow = (name: string, f: Rate, count: number, ceiling: Rate | null, note: string) =>
  `| ${name} | ${f.perSecond.toFixed(0)} | ${ceiling ? `${((100 * f.perSecond) / ceiling.perSecond).toFixed(0)} %` : '–'} | ${f.p50 === undefined ? '–' : f.p50.toFixed(0)} | ${f.p99 === undefined ? '–' : f.p99.toFixed(0)} | ${count} | ${note} |`;

/** The machine a result was measured on, and how busy it was before (`loadBefore`) and after. */
export function machineLine(loadBefore: number): string {
  const cpu = cpus();
  return `Machine: ${cpu.length} cores (${cpu[0]?.model.trim()}), shared with other work (load average ${loadBefore.toFixed(1)} before, ${loadavg()[0]!.toFixed(1)} after);`;
}
