import { describe, expect, it } from 'vitest';
import { parseRetryAfter } from './api-error.ts';
import { refreshDelayMs } from './refresh-schedule.ts';

describe('refreshDelayMs', () => {
  const now = 1_000_000_000_000;

  it('refreshes a 15-minute token one minute before it expires', () => {
    expect(refreshDelayMs(now / 1000 + 900, now)).toBe(840_000);
  });

  it('refreshes a short-lived token at four fifths of its remaining life', () => {
    expect(refreshDelayMs(now / 1000 + 60, now)).toBe(48_000);
  });

  it('refreshes at once when the token has already expired', () => {
    expect(refreshDelayMs(now / 1000 - 5, now)).toBe(0);
  });
});

describe('parseRetryAfter', () => {
  it('reads delta-seconds and HTTP dates, and nothing else', () => {
    expect(parseRetryAfter('120')).toBe(120);
    expect(parseRetryAfter('Thu, 01 Jan 2026 00:01:00 GMT', Date.parse('2026-01-01T00:00:00Z'))).toBe(60);
    expect(parseRetryAfter(null)).toBeNull();
    expect(parseRetryAfter('soon')).toBeNull();
  });
});
