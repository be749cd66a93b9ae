/**
 * The test vocabulary the domain's unit tests and contract suites are written in, under the names
 * vitest gives it, so a suite moves here by changing its import line only (`from 'vitest'` becomes
 * `from '../testing/test-api.ts'`; relative imports carry `.ts`). Whoever runs the suites installs
 * a host first: vitest's own functions (the setup file), bun:test's, node:test's, or the neutral
 * runner that Deno, workerd and the browser drive (the default). A matcher outside `Matchers` has
 * to be added there first.
 */
import type { AsymmetricMatcher } from './harness/equality.ts';
import { neutralExpect, type Expect } from './harness/expect.ts';
import { neutralVi, type Vi } from './harness/spy.ts';
import { createCollector } from './harness/suite.ts';
import { titleOf } from './harness/title.ts';

export type { Expect } from './harness/expect.ts';
export type { Vi } from './harness/spy.ts';
export type { CollectedTest } from './harness/suite.ts';

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

const neutral = createCollector();
let host: Required<TestHost> = { ...neutral, expect: neutralExpect, vi: neutralVi };

/** Every case declared through the neutral runner, for the drivers of runtimes that use it. */
export const collectedTests = neutral.tests;

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
  // biome-ignore lint/suspicious/noExplicitAny: `any[] | [any]` infers rows as tuples
  <T extends any[] | [any]>(table: readonly T[]): (title: string, body: (...args: T) => unknown) => void;
  <T>(table: readonly T[]): (title: string, body: (row: T) => unknown) => void;
}

const each: Each = (table: readonly unknown[]) => (template: string, body: (...args: unknown[]) => unknown) => {
  table.forEach((row, index) => {
    const args = Array.isArray(row) ? row : [row];
    host.it(titleOf(template, row, index), () => body(...args));
  });
};

export const it = Object.assign((name: string, body: () => unknown) => host.it(name, body), { each });
