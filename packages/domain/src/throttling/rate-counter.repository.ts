import { token } from '../shared/token.ts';

/** A key's count in its current window, the hit just counted included, and when that window ends. */
export interface RateCount {
  readonly count: number;
  readonly windowEnds: Date;
}

/**
 * Fixed-window hit counters, kept in the database so that every instance counts the same hits
 * (send limits, per-address request limits). A window opens at a key's first hit and lasts
 * `windowSeconds`; the first hit after it ended opens the next one.
 */
export interface RateCounterRepository {
  /**
   * Counts one hit of `key` at `now`, in one atomic statement (an upsert): of N concurrent hits of
   * one key, exactly N are counted, and each answers a different count.
   */
  hit(key: string, now: Date, windowSeconds: number): Promise<RateCount>;
  /** Forgets counters whose window ended before `before`: they no longer limit anything. */
  prune(before: Date): Promise<void>;
}
export const RateCounterRepository = token<RateCounterRepository>('RateCounterRepository');
