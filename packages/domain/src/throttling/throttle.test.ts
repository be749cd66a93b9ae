import { describe, expect, it } from '../testing/test-api.ts';
import {
  DEFAULT_THROTTLE_POLICY,
  retryAfterSeconds,
  throttleKeys,
  windowStart,
  type ThrottleRule,
} from './throttle.ts';

const rule: ThrottleRule = { limit: 3, windowSeconds: 900 };
const t0 = new Date('2026-01-01T00:00:00.000Z');
const after = (seconds: number) => new Date(t0.getTime() + seconds * 1000);

describe('retryAfterSeconds', () => {
  it('is null below the limit', () => {
    expect(retryAfterSeconds({ count: 2, oldest: t0 }, rule, after(1))).toBeNull();
    expect(retryAfterSeconds({ count: 0, oldest: null }, rule, t0)).toBeNull();
  });

  it('at the limit, is the time until the oldest failure leaves the window', () => {
    expect(retryAfterSeconds({ count: 3, oldest: t0 }, rule, t0)).toBe(900);
    expect(retryAfterSeconds({ count: 3, oldest: t0 }, rule, after(300))).toBe(600);
    expect(retryAfterSeconds({ count: 5, oldest: t0 }, rule, after(899))).toBe(1);
  });

  it('rounds a part of a second up, so waiting that long is always enough', () => {
    expect(retryAfterSeconds({ count: 3, oldest: t0 }, rule, new Date(t0.getTime() + 300_001))).toBe(600);
    expect(retryAfterSeconds({ count: 3, oldest: t0 }, rule, new Date(t0.getTime() + 899_999))).toBe(1);
  });

  it('is never less than one second while throttled', () => {
    expect(retryAfterSeconds({ count: 3, oldest: t0 }, rule, after(900))).toBe(1);
  });

  it('is null without an oldest failure, whatever the count', () => {
    expect(retryAfterSeconds({ count: 3, oldest: null }, rule, t0)).toBeNull();
  });
});

describe('windowStart', () => {
  it('counts a failure younger than the window and drops one exactly as old as the window', () => {
    const now = after(900);
    const start = windowStart(rule, now);
    expect(after(1).getTime()).toBeGreaterThanOrEqual(start.getTime());
    expect(t0.getTime()).toBeLessThan(start.getTime());
  });

  it('agrees with retryAfterSeconds: after waiting that long, the oldest failure no longer counts', () => {
    for (const elapsed of [0, 1, 299.5, 899, 899.999]) {
      const now = new Date(t0.getTime() + elapsed * 1000);
      const wait = retryAfterSeconds({ count: 3, oldest: t0 }, rule, now)!;
      expect(t0.getTime()).toBeLessThan(windowStart(rule, new Date(now.getTime() + wait * 1000)).getTime());
    }
  });
});

describe('throttleKeys', () => {
  it('keys an account by kind, email and address, and an address by the address alone', () => {
    expect(throttleKeys('user', 'alice@example.com', '203.0.113.7')).toEqual({
      accountAndAddress: 'user:alice@example.com|203.0.113.7',
      address: 'address:203.0.113.7',
      account: 'account:user:alice@example.com',
    });
  });

  it('gives a user and an admin with one email different account keys, and one address key', () => {
    const user = throttleKeys('user', 'a@example.com', '::1');
    const admin = throttleKeys('admin', 'a@example.com', '::1');
    expect(user.accountAndAddress).not.toBe(admin.accountAndAddress);
    expect(user.address).toBe(admin.address);
  });
});

describe('DEFAULT_THROTTLE_POLICY', () => {
  it('allows 10 failures per account and address and 100 per address in 15 minutes', () => {
    expect(DEFAULT_THROTTLE_POLICY).toEqual({
      perAccountAndAddress: { limit: 10, windowSeconds: 900 },
      perAddress: { limit: 100, windowSeconds: 900 },
    });
  });
});
