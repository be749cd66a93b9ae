import { token } from '../shared/token';

export interface FailureStats {
  count: number;
  /** The earliest failure counted, or null when there is none. */
  oldest: Date | null;
}

/** Failed-login counters, kept in the database so that every instance sees the same counts. */
export interface LoginAttemptRepository {
  recordFailure(keys: readonly string[], at: Date): Promise<void>;
  failuresSince(key: string, since: Date): Promise<FailureStats>;
  clear(key: string): Promise<void>;
  /** Forgets failures older than `before`; they no longer count toward any limit. */
  prune(before: Date): Promise<void>;
}
export const LoginAttemptRepository = token<LoginAttemptRepository>('LoginAttemptRepository');
