import { token } from '../shared/token.ts';

export interface FailureStats {
  count: number;
  /** The earliest failure counted, or null when there is none. */
  oldest: Date | null;
}

/**
 * Failed-attempt counters, kept in the database so that every instance sees the same counts. An
 * attempt is recorded before it is judged (so concurrent guesses count each other) and counts as
 * a failure until it is withdrawn.
 */
export interface LoginAttemptRepository {
  /** Records attempt `id` once under every key. */
  record(id: string, keys: readonly string[], at: Date): Promise<void>;
  /** Takes attempt `id` back under every key; withdrawing an unknown id does nothing. */
  withdraw(id: string): Promise<void>;
  failuresSince(key: string, since: Date): Promise<FailureStats>;
  /**
   * How many failures each of `keys` has at or after `since`, in one read that the (key, time)
   * index answers: a key with none is absent from the map.
   */
  failureCounts(keys: readonly string[], since: Date): Promise<Map<string, number>>;
  clear(key: string): Promise<void>;
  /** Forgets failures older than `before`; they no longer count toward any limit. */
  prune(before: Date): Promise<void>;
}
export const LoginAttemptRepository = token<LoginAttemptRepository>('LoginAttemptRepository');
