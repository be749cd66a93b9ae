import { describe, expect, it } from '../test-api.ts';
import { AssertionError, neutralExpect as check } from './expect.ts';
import { neutralVi } from './spy.ts';

class Point {
  constructor(readonly x: number) {}
}

const spied = { add: (a: number, b: number) => a + b };
const spy = neutralVi.spyOn(spied, 'add');
spied.add(1, 2);

function refusal(assertion: () => unknown): unknown {
  try {
    assertion();
  } catch (error) {
    return error;
  }
  return undefined;
}

// Each row: an assertion that must pass, and one just beside it that must fail.
const cases: [string, () => unknown, () => unknown][] = [
  ['toBe', () => check(NaN).toBe(NaN), () => check({}).toBe({})],
  [
    'toEqual',
    () => check({ a: [1, new Date(5)], b: undefined }).toEqual({ a: [1, new Date(5)] }),
    () => check({ a: [1, 2] }).toEqual({ a: [1, 2, 3] }),
  ],
  [
    'toEqual with expect.any',
    () => check({ id: 'x', n: 1 }).toEqual({ id: check.any(String), n: check.any(Number) }),
    () => check({ id: 1 }).toEqual({ id: check.any(String) }),
  ],
  [
    'toEqual across Map and Uint8Array',
    () => check([new Map([[1, 'a']]), new Uint8Array([1])]).toEqual([new Map([[1, 'a']]), new Uint8Array([1])]),
    () => check(new Uint8Array([1])).toEqual(new Uint8Array([2])),
  ],
  [
    'toMatchObject',
    () => check({ a: 1, b: { c: 2, d: 3 } }).toMatchObject({ b: { c: 2 } }),
    () => check({ a: 1 }).toMatchObject({ a: 1, b: undefined }),
  ],
  [
    'toMatchObject on an error, by its own keys',
    () => check(Object.assign(new Error('refused'), { code: 'x' })).toMatchObject({ code: 'x' }),
    () => check(Object.assign(new Error('refused'), { code: 'x' })).toMatchObject({ code: 'y' }),
  ],
  ['toBeNull', () => check(null).toBeNull(), () => check(undefined).toBeNull()],
  ['toBeDefined', () => check(0).toBeDefined(), () => check(undefined).toBeDefined()],
  ['toBeUndefined', () => check(undefined).toBeUndefined(), () => check(null).toBeUndefined()],
  ['toBeTruthy', () => check(1).toBeTruthy(), () => check('').toBeTruthy()],
  ['toBeFalsy', () => check(0).toBeFalsy(), () => check('x').toBeFalsy()],
  ['toBeInstanceOf', () => check(new Point(1)).toBeInstanceOf(Point), () => check({ x: 1 }).toBeInstanceOf(Point)],
  ['toBeGreaterThan', () => check(2).toBeGreaterThan(1), () => check(1).toBeGreaterThan(1)],
  ['toBeGreaterThanOrEqual', () => check(1).toBeGreaterThanOrEqual(1), () => check(0).toBeGreaterThanOrEqual(1)],
  ['toBeLessThan', () => check(1).toBeLessThan(2), () => check(2).toBeLessThan(2)],
  ['toBeLessThanOrEqual', () => check(2).toBeLessThanOrEqual(2), () => check(3).toBeLessThanOrEqual(2)],
  ['toHaveLength', () => check([1, 2]).toHaveLength(2), () => check('abc').toHaveLength(2)],
  ['toMatch', () => check('72 bytes').toMatch(/\d+ bytes/), () => check('bytes').toMatch('72')],
  ['toContain', () => check(['a', 'b']).toContain('b'), () => check('secret').toContain('public')],
  [
    'toHaveProperty',
    () => check({ a: { b: 0 } }).toHaveProperty('a.b', 0),
    () => check({ a: {} }).toHaveProperty('a.b'),
  ],
  ['toHaveBeenCalledWith', () => check(spy).toHaveBeenCalledWith(1, 2), () => check(spy).toHaveBeenCalledWith(2, 1)],
  ['not', () => check(1).not.toBe(2), () => check(1).not.toBe(1)],
];

describe('the neutral expect', () => {
  it.each(cases)('%s passes when it holds and throws an AssertionError when it does not', (_matcher, holds, fails) => {
    holds();
    expect(refusal(fails)).toBeInstanceOf(AssertionError);
  });

  it('resolves and rejects wait for the promise and judge its value or its reason', async () => {
    await check(Promise.resolve(3)).resolves.toBe(3);
    await check(Promise.reject(new RangeError('no'))).rejects.toBeInstanceOf(RangeError);
    await expect(check(Promise.resolve(3)).rejects.toBeDefined()).rejects.toBeInstanceOf(AssertionError);
    await expect(check(Promise.reject(new Error('no'))).resolves.toBeDefined()).rejects.toBeInstanceOf(AssertionError);
    await expect(check(Promise.resolve(3)).resolves.not.toBe(3)).rejects.toBeInstanceOf(AssertionError);
  });

  it('a spy calls through and records every call', () => {
    const counter = {
      total: 0,
      add(n: number) {
        return (this.total += n);
      },
    };
    const add = neutralVi.spyOn(counter, 'add');
    expect([counter.add(2), counter.add(3)]).toEqual([2, 5]);
    expect(add.mock.calls).toEqual([[2], [3]]);
  });
});
