import { addSeconds } from '../shared/clock.ts';

/**
 * The waits between attempts, in seconds, as the Standard Webhooks specification suggests: the
 * first attempt at once, then 5 s, 5 min, 30 min, 2 h, 5 h, 10 h and 10 h; a delivery still
 * failing after the last is `failed` (about a day and a half after its event).
 */
export const DEFAULT_WEBHOOK_RETRY_SCHEDULE: readonly number[] = [5, 300, 1800, 7200, 18000, 36000, 36000];

/** How far each wait may stray from the schedule, either way: retries of many deliveries spread out. */
export const RETRY_JITTER = 0.2;

/** The longest `Retry-After` a receiver may ask for: a day, so no answer parks a delivery for good. */
export const MAX_RETRY_AFTER_SECONDS = 86_400;

/** An endpoint whose deliveries have failed for this long without one success is disabled (`failing`). */
export const FAILING_DISABLE_SECONDS = 5 * 86_400;

/** Parses WEBHOOK_RETRY_SCHEDULE: whole seconds, comma-separated, at least one. */
export function parseRetrySchedule(value: string): number[] {
  const waits = value.split(',').map((item) => item.trim());
  if (waits.length === 0 || waits.some((wait) => !/^\d+$/.test(wait) || Number(wait) > MAX_RETRY_AFTER_SECONDS)) {
    throw new Error(`must be whole seconds (at most ${MAX_RETRY_AFTER_SECONDS}), comma-separated`);
  }
  return waits.map(Number);
}

/**
 * When attempt `attempt` (1-based, just failed) is followed by the next, or null when it was the
 * last. The scheduled wait strays by up to ±RETRY_JITTER; a receiver's `Retry-After` replaces it.
 */
export function nextAttemptAt(
  attempt: number,
  now: Date,
  schedule: readonly number[],
  random: () => number,
  retryAfterSeconds: number | null = null,
): Date | null {
  const wait = schedule[attempt - 1];
  if (wait === undefined) return null;
  if (retryAfterSeconds !== null) return addSeconds(now, Math.min(retryAfterSeconds, MAX_RETRY_AFTER_SECONDS));
  return addSeconds(now, wait * (1 + RETRY_JITTER * (2 * random() - 1)));
}
