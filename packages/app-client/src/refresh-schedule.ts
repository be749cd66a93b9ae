/**
 * How long to wait before refreshing an access token that expires at `expirySeconds`
 * (Unix seconds): a minute early, or a fifth of the remaining lifetime when that is shorter,
 * so short-lived tokens are still refreshed in time.
 */
export function refreshDelayMs(expirySeconds: number, now: number = Date.now()): number {
  const remaining = expirySeconds * 1000 - now;
  const lead = Math.min(60_000, remaining / 5);
  return Math.max(0, Math.floor(remaining - lead));
}

/** Delay before trying again after a refresh failed for a reason other than a dead session. */
export const REFRESH_RETRY_MS = 15_000;
