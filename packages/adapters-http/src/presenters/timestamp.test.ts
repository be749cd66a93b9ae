import { describe, expect, it } from 'vitest';
import { timestamp } from './timestamp';

describe('timestamp', () => {
  it.each([
    '1970-01-01T00:00:00.000Z',
    '1969-12-31T23:59:59.999Z',
    '2000-02-29T12:34:56.789Z',
    '1900-03-01T00:00:00.001Z',
    '2100-02-28T23:59:59.010Z',
    '2026-11-25T01:02:03.100Z',
    '1000-01-01T00:00:00.000Z',
    '9999-12-31T23:59:59.999Z',
  ])('writes %s as toISOString does', (text) => {
    expect(timestamp(new Date(text))).toBe(text);
  });

  it('agrees with toISOString over 100,000 random instants from year 1000 to 9999', () => {
    const from = Date.UTC(1000, 0, 1);
    const to = Date.UTC(9999, 11, 31, 23, 59, 59, 999);
    for (let i = 0; i < 100_000; i += 1) {
      const date = new Date(from + Math.floor(Math.random() * (to - from)));
      expect(timestamp(date)).toBe(date.toISOString());
    }
  });

  it('leaves years of another width to toISOString, and refuses an invalid date as it does', () => {
    for (const date of [
      new Date(Date.UTC(999, 11, 31, 23, 59, 59, 999)),
      new Date(Date.UTC(10_000, 0, 1)),
      new Date(-8.64e15),
    ]) {
      expect(timestamp(date)).toBe(date.toISOString());
    }
    expect(() => timestamp(new Date(Number.NaN))).toThrow(RangeError);
  });
});
