import { describe, expect, it } from 'vitest';
import { ENDS_HELD, idsOfWindow, MatchCache, matchesOf } from './match-cache';

const ids = (count: number, prefix = 'u') => Array.from({ length: count }, (_, n) => `${prefix}${n}`);

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

  it('lets the least recently used terms go once it holds too many ids', () => {
    const cache = new MatchCache();
    for (let n = 0; n < 200; n++) cache.set(`term${n}`, '1', matchesOf(ids(2 * ENDS_HELD, `t${n}-`)));
    cache.get('term0', '1');
    cache.set('last', '1', matchesOf(ids(2 * ENDS_HELD)));
    expect(cache.get('last', '1')).toBeDefined();
    expect(cache.get('term199', '1')).toBeDefined();
    expect(cache.get('term1', '1')).toBeUndefined();
  });
});

describe('idsOfWindow', () => {
  it('serves pages near either end from the ids held, and none from the middle', () => {
    const all = ids(3 * ENDS_HELD);
    const matches = matchesOf(all);
    expect(matches.total).toBe(all.length);
    expect(idsOfWindow(matches, { descending: false, offset: 40, limit: 20 })).toEqual(all.slice(40, 60));
    // From the far end: offset counts from the last match, the ids come in (created, id) order.
    expect(idsOfWindow(matches, { descending: true, offset: 0, limit: 20 })).toEqual(all.slice(-20));
    expect(idsOfWindow(matches, { descending: true, offset: 40, limit: 5 })).toEqual(all.slice(-45, -40));
    expect(idsOfWindow(matches, { descending: false, offset: ENDS_HELD, limit: 20 })).toBeUndefined();
    expect(idsOfWindow(matches, { descending: true, offset: ENDS_HELD - 10, limit: 20 })).toBeUndefined();
  });

  it('holds every id of a search with few matches', () => {
    const matches = matchesOf(ids(30));
    expect(idsOfWindow(matches, { descending: true, offset: 0, limit: 10 })).toEqual(ids(30).slice(20));
  });
});
