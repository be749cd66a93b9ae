import { any, deepEquals, show, type AsymmetricMatcher } from './equality.ts';
import { isSpy } from './spy.ts';

type Constructor = abstract new (...args: never[]) => unknown;

/** The matchers the domain's suites use; a new one goes here, in the neutral `expect` and nowhere else. */
interface Matchers<R> {
  toBe(expected: unknown): R;
  toEqual(expected: unknown): R;
  toMatchObject(expected: object): R;
  toBeNull(): R;
  toBeDefined(): R;
  toBeUndefined(): R;
  toBeTruthy(): R;
  toBeFalsy(): R;
  toBeInstanceOf(type: Constructor): R;
  toBeGreaterThan(bound: number | bigint): R;
  toBeGreaterThanOrEqual(bound: number | bigint): R;
  toBeLessThan(bound: number | bigint): R;
  toBeLessThanOrEqual(bound: number | bigint): R;
  toHaveLength(length: number): R;
  toMatch(pattern: RegExp | string): R;
  toContain(item: unknown): R;
  toHaveProperty(path: string, value?: unknown): R;
  toHaveBeenCalledWith(...args: unknown[]): R;
}

interface Assertion extends Matchers<void> {
  not: Matchers<void>;
  resolves: Matchers<Promise<void>> & { not: Matchers<Promise<void>> };
  rejects: Matchers<Promise<void>> & { not: Matchers<Promise<void>> };
}

export interface Expect {
  (actual: unknown): Assertion;
  any(type: Constructor): AsymmetricMatcher;
}

/** A failed expectation; runners report its message. */
export class AssertionError extends Error {
  override name = 'AssertionError';
}

interface Outcome {
  pass: boolean;
  message: string;
}
// Each check declares its own argument types; `any` lets them share one table.
// biome-ignore lint/suspicious/noExplicitAny: each check declares its own argument types
type Check = (actual: unknown, ...args: any[]) => Outcome;

function propertyAt(subject: unknown, path: string): { found: boolean; value?: unknown } {
  let value = subject;
  for (const key of path.split('.')) {
    if (value === null || value === undefined || !(key in Object(value))) return { found: false };
    value = (value as Record<string, unknown>)[key];
  }
  return { found: true, value };
}

const checks = {
  toBe: (a, e: unknown) => ({ pass: Object.is(a, e), message: `${show(a)} to be ${show(e)}` }),
  toEqual: (a, e: unknown) => ({ pass: deepEquals(a, e), message: `${show(a)} to equal ${show(e)}` }),
  toMatchObject: (a, e: object) => ({ pass: deepEquals(a, e, true), message: `${show(a)} to match ${show(e)}` }),
  toBeNull: (a) => ({ pass: a === null, message: `${show(a)} to be null` }),
  toBeDefined: (a) => ({ pass: a !== undefined, message: `${show(a)} to be defined` }),
  toBeUndefined: (a) => ({ pass: a === undefined, message: `${show(a)} to be undefined` }),
  toBeTruthy: (a) => ({ pass: Boolean(a), message: `${show(a)} to be truthy` }),
  toBeFalsy: (a) => ({ pass: !a, message: `${show(a)} to be falsy` }),
  toBeInstanceOf: (a, type: Constructor) => ({
    pass: a instanceof type,
    message: `${show(a)} to be an instance of ${type.name}`,
  }),
  toBeGreaterThan: (a, b: number) => ({ pass: (a as number) > b, message: `${show(a)} to be > ${b}` }),
  toBeGreaterThanOrEqual: (a, b: number) => ({ pass: (a as number) >= b, message: `${show(a)} to be >= ${b}` }),
  toBeLessThan: (a, b: number) => ({ pass: (a as number) < b, message: `${show(a)} to be < ${b}` }),
  toBeLessThanOrEqual: (a, b: number) => ({ pass: (a as number) <= b, message: `${show(a)} to be <= ${b}` }),
  toHaveLength: (a, length: number) => ({
    pass: (a as { length?: unknown } | null)?.length === length,
    message: `${show(a)} to have length ${length}`,
  }),
  toMatch: (a, pattern: RegExp | string) => ({
    pass: typeof a === 'string' && (typeof pattern === 'string' ? a.includes(pattern) : pattern.test(a)),
    message: `${show(a)} to match ${String(pattern)}`,
  }),
  toContain: (a, item: unknown) => ({
    pass: typeof a === 'string' ? a.includes(item as string) : Array.isArray(a) && a.includes(item),
    message: `${show(a)} to contain ${show(item)}`,
  }),
  toHaveProperty: (a, path: string, ...value: unknown[]) => {
    const property = propertyAt(a, path);
    return {
      pass: property.found && (value.length === 0 || deepEquals(property.value, value[0])),
      message: `${show(a)} to have property ${path}${value.length ? ` = ${show(value[0])}` : ''}`,
    };
  },
  toHaveBeenCalledWith: (a, ...args: unknown[]) => {
    if (!isSpy(a)) throw new AssertionError(`${show(a)} is not a spy`);
    return {
      pass: a.mock.calls.some((call) => deepEquals(call, args)),
      message: `a spy called with ${show(a.mock.calls)} to have been called with ${show(args)}`,
    };
  },
} satisfies Record<keyof Matchers<void>, Check>;

function matchers<R>(judge: (check: Check, args: unknown[]) => R): Matchers<R> {
  return Object.fromEntries(
    Object.entries(checks).map(([name, check]) => [name, (...args: unknown[]) => judge(check, args)]),
  ) as unknown as Matchers<R>;
}

function assertOutcome(outcome: Outcome, negated: boolean): void {
  if (outcome.pass === negated) throw new AssertionError(`expected ${negated ? 'not ' : ''}${outcome.message}`);
}

function settled(promise: unknown, wantRejection: boolean, negated: boolean): Matchers<Promise<void>> {
  return matchers(async (check, args) => {
    let value: unknown;
    try {
      value = await promise;
    } catch (reason) {
      if (!wantRejection) throw new AssertionError(`expected the promise to resolve, it rejected with ${show(reason)}`);
      return assertOutcome(check(reason, ...args), negated);
    }
    if (wantRejection) throw new AssertionError(`expected the promise to reject, it resolved with ${show(value)}`);
    assertOutcome(check(value, ...args), negated);
  });
}

/** The runtime-neutral `expect`, for runners that bring none of their own. */
export const neutralExpect: Expect = Object.assign(
  (actual: unknown): Assertion => {
    const direct = (negated: boolean) => matchers((check, args) => assertOutcome(check(actual, ...args), negated));
    return Object.assign(direct(false), {
      not: direct(true),
      resolves: Object.assign(settled(actual, false, false), { not: settled(actual, false, true) }),
      rejects: Object.assign(settled(actual, true, false), { not: settled(actual, true, true) }),
    });
  },
  { any },
);
