import type { FailureStats } from './login-attempt.repository.ts';

export interface ThrottleRule {
  limit: number;
  windowSeconds: number;
}

/**
 * Failed logins are limited per account and client address together, and per address alone
 * with a higher limit, so one office behind one address is not locked out by one user.
 */
export interface ThrottlePolicy {
  perAccountAndAddress: ThrottleRule;
  perAddress: ThrottleRule;
}

export const DEFAULT_THROTTLE_POLICY: ThrottlePolicy = {
  perAccountAndAddress: { limit: 10, windowSeconds: 15 * 60 },
  perAddress: { limit: 100, windowSeconds: 15 * 60 },
};

/**
 * The earliest failure time that still counts: the window is the last `windowSeconds` with a
 * failure exactly that old already outside, so a client that waits `retryAfterSeconds` gets in.
 */
export function windowStart(rule: ThrottleRule, now: Date): Date {
  return new Date(now.getTime() - rule.windowSeconds * 1000 + 1);
}

/** Seconds until a throttled key may try again, or null when it is not throttled. */
export function retryAfterSeconds(stats: FailureStats, rule: ThrottleRule, now: Date): number | null {
  if (stats.count < rule.limit || !stats.oldest) return null;
  const freeAt = stats.oldest.getTime() + rule.windowSeconds * 1000;
  return Math.max(1, Math.ceil((freeAt - now.getTime()) / 1000));
}

/**
 * The keys a login attempt is recorded under: the two the policy limits, and the account alone,
 * which no rule limits but which tells how many logins of an account failed lately, from anywhere.
 */
export function throttleKeys(kind: string, email: string, address: string) {
  return {
    accountAndAddress: `${kind}:${email}|${address}`,
    address: `address:${address}`,
    account: accountKey(kind, email),
  };
}

export const accountKey = (kind: string, email: string): string => `account:${kind}:${email}`;
