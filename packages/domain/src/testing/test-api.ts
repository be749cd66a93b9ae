/**
 * The test vocabulary the domain's unit tests and contract suites are written in, under the names
 * vitest gives it, so a suite moves here by changing its import line only (`from 'vitest'` becomes
 * `from '../testing/test-api.ts'`). Whoever runs the suites installs a host first: vitest's own
 * functions (the setup file), bun:test's, node:test's, or the neutral runner that Deno, workerd and
 * the browser drive (the default). A matcher outside `Matchers` has to be added there first.
 */
import type { AsymmetricMatcher } from './harness/equality.ts';
import { neutralExpect, type Expect } from './harness/expect.ts';
import { neutralVi, type Vi } from './harness/spy.ts';
import * as neutral from './harness/suite.ts';

export type { Assertion, Expect, Matchers } from './harness/expect.ts';
export type { Spy, Vi } from './harness/spy.ts';
export { collectedTests, type CollectedTest } from './harness/suite.ts';

type Hook = () => unknown;

/** What a test runner lends the suites; `expect` and `vi` fall back to the neutral ones. */
export interface TestHost {
  describe(name: string, body: () => void): void;
  it(name: string, body: () => unknown): void;
  beforeEach(hook: Hook): void;
  afterEach(hook: Hook): void;
  expect?: Expect;
  vi?: Vi;
}

let host: Required<TestHost> = { ...neutral, expect: neutralExpect, vi: neutralVi };

/** Lends the suites a runner's functions; call it before any suite is declared. */
export function useTestHost(runner: TestHost): void {
  host = { expect: neutralExpect, vi: neutralVi, ...runner };
}

export function describe(name: string, body: () => void): void {
  host.describe(name, body);
}

export function beforeEach(hook: Hook): void {
  host.beforeEach(hook);
}

export function afterEach(hook: Hook): void {
  host.afterEach(hook);
}

export const expect: Expect = Object.assign((actual: unknown) => host.expect(actual), {
  any: (type: Parameters<Expect['any']>[0]): AsymmetricMatcher => host.expect.any(type),
});

export const vi: Vi = { spyOn: (object, method) => host.vi.spyOn(object, method) };

/** `it.each(table)(title, body)`; tuple rows are spread into the body's arguments, as vitest does. */
interface Each {
  // `any[] | [any]` makes TypeScript infer each row as a tuple.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  <T extends any[] | [any]>(table: readonly T[]): (title: string, body: (...args: T) => unknown) => void;
  <T>(table: readonly T[]): (title: string, body: (row: T) => unknown) => void;
}

/** Names a table row the way vitest's `each` does: `%s`-style placeholders, or `$key.path` for an object row. */
function titleOf(template: string, row: unknown, index: number): string {
  if (row !== null && typeof row === 'object' && !Array.isArray(row)) {
    return template.replace(/\$([\w.]+)/g, (_match, path: string) =>
      String(path.split('.').reduce<unknown>((value, key) => (value as Record<string, unknown> | undefined)?.[key], row)),
    );
  }
  const values: unknown[] = Array.isArray(row) ? [...row] : [row];
  return template
    .replace(/%#/g, String(index))
    .replace(/%[sdifjo]/g, (placeholder) => {
      const value = values.shift();
      return placeholder === '%j' || placeholder === '%o' ? JSON.stringify(value) : String(value);
    });
}

const each: Each =
  (table: readonly unknown[]) =>
  (template: string, body: (...args: unknown[]) => unknown) => {
    table.forEach((row, index) => {
      const args = Array.isArray(row) ? row : [row];
      host.it(titleOf(template, row, index), () => body(...args));
    });
  };

export const it = Object.assign((name: string, body: () => unknown) => host.it(name, body), { each });
