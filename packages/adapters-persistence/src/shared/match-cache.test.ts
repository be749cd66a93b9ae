import { describe, expect, it } from 'vitest';
import { bytesOf, idsOfWindow, MatchCache, matchesOf, TERM_BYTES } from './match-cache';
import { pageWindow } from './page-window';

const ids = (count: number, prefix = 'u') => Array.from({ length: count }, (_, n) => `${prefix}${n}`);
/** As many UUID-long ids (36 characters) as `bytes` holds, packed. */
const uuidsIn = (bytes: number) => Math.floor(bytes / (36 + 4));
const uuids = (count: number, prefix: string) =>
  Array.from({ length: count }, (_, n) => `${prefix}-${String(n).padStart(35 - prefix.length, '0')}`);

describe('MatchCache', () => {
  it('answers a term only for the generation it was read at', () => {
    const cache = new MatchCache();
    const matches = matchesOf(ids(3));
    cache.set('term', '7', matches);
    expect(cache.get('term', '7')).toBe(matches);
    expect(cache.get('term', '8')).toBeUndefined();
    expect(cache.get('other', '7')).toBeUndefined();
    // Whether it holds a term at all, whatever the generation: a search it lacks is read afresh.
    expect([cache.has('term'), cache.has('other')]).toEqual([true, false]);
  });

  it('holds 64 MiB of ids at most, letting the least recently used terms go past it', () => {
    const cache = new MatchCache();
    // 70 terms of 1 MiB each: 64 fit.
    const count = uuidsIn(TERM_BYTES);
    for (let n = 0; n < 70; n++) {
      cache.set(`term${n}`, '1', matchesOf(uuids(count, `t${n}`)));
      if (n === 10) cache.get('term0', '1'); // used again: kept past the others of its age
    }
    expect(cache.bytes).toBeLessThanOrEqual(64 << 20);
    expect(cache.bytes).toBeGreaterThan(63 * TERM_BYTES);
    const kept = Array.from({ length: 70 }, (_, n) => `term${n}`).filter((term) => cache.get(term, '1'));
    expect(kept).toEqual(['term0', ...Array.from({ length: 63 }, (_, n) => `term${n + 7}`)]);
  });

  it('holds 10,000 terms at most, however few ids each holds, the least recently used going first', () => {
    const cache = new MatchCache();
    for (let n = 0; n < 10_005; n++) {
      cache.set(`term${n}`, '1', matchesOf([`id${n}`]));
      if (n === 100) cache.get('term0', '1'); // used again: kept past the others of its age
    }
    const held = Array.from({ length: 10_005 }, (_, n) => `term${n}`).filter((term) => cache.has(term));
    expect(held).toHaveLength(10_000);
    expect(held.slice(0, 2)).toEqual(['term0', 'term6']);
  });

  it('counts what a replaced term held once', () => {
    const cache = new MatchCache();
    cache.set('term', '1', matchesOf(ids(100)));
    cache.set('term', '2', matchesOf(ids(10)));
    expect(cache.bytes).toBe(bytesOf(matchesOf(ids(10)).ids));
  });
});

describe('matchesOf', () => {
  it('packs the ids into one string and their ends, a byte a character and four an id', () => {
    const { ids: packed } = matchesOf(['a', 'bc', 'def']);
    expect(packed.chars).toBe('abcdef');
    expect([...packed.ends]).toEqual([1, 3, 6]);
    expect(bytesOf(packed)).toBe(6 + 12);
    // Past Latin-1, V8 stores every character of the string in two bytes.
    expect(bytesOf(matchesOf(['ż', 'a']).ids)).toBe(4 + 8);
  });

  it('keeps as many of the first ids as TERM_BYTES holds, with the total of all', () => {
    const count = uuidsIn(TERM_BYTES);
    const all = uuids(count + 500, 'big');
    const matches = matchesOf(all, 50_000);
    expect(matches.total).toBe(50_000);
    expect(matches.ids.ends.length).toBe(count);
    expect(bytesOf(matches.ids)).toBeLessThanOrEqual(TERM_BYTES);
    expect(idsOfWindow(matches, { descending: false, offset: count - 20, limit: 20 })).toEqual(
      all.slice(count - 20, count),
    );
    expect(idsOfWindow(matches, { descending: false, offset: count - 19, limit: 20 })).toBeUndefined();
    expect(idsOfWindow(matches, { descending: true, offset: 0, limit: 20 })).toBeUndefined();
  });
});

describe('idsOfWindow', () => {
  it('serves every page, from either end, of a search whose ids it holds', () => {
    const all = ids(3 * 500 + 7);
    const matches = matchesOf(all);
    expect(matches.total).toBe(all.length);
    const pages: string[] = [];
    for (let page = 1; page <= Math.ceil(all.length / 20); page++)
      pages.push(...idsOfWindow(matches, pageWindow(all.length, page, 20)!)!);
    expect(pages).toEqual(all);
    // From the far end: offset counts from the last match, the ids come in (created, id) order.
    expect(idsOfWindow(matches, { descending: true, offset: 0, limit: 20 })).toEqual(all.slice(-20));
    expect(idsOfWindow(matches, { descending: true, offset: 700, limit: 5 })).toEqual(all.slice(-705, -700));
  });

  it('holds no ids of a search counted only', () => {
    const matches = matchesOf([], 30_000);
    expect(matches.total).toBe(30_000);
    expect(idsOfWindow(matches, { descending: false, offset: 0, limit: 20 })).toBeUndefined();
  });
});
