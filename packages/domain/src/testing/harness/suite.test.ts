import { describe, expect, it } from '../test-api.ts';
import { createCollector } from './suite.ts';
import { titleOf } from './title.ts';

describe('the neutral runner', () => {
  it('names each case by its suites and wraps it in every hook, outside in, then inside out', async () => {
    const runner = createCollector();
    const calls: string[] = [];
    runner.beforeEach(() => calls.push('outer before'));
    runner.afterEach(() => calls.push('outer after'));
    runner.describe('suite', () => {
      runner.beforeEach(async () => void calls.push('inner before'));
      runner.afterEach(() => calls.push('inner after'));
      runner.it('case', () => calls.push('case'));
    });
    runner.it('top', () => calls.push('top'));
    expect(runner.tests().map((test) => test.name)).toEqual(['suite > case', 'top']);
    await runner.tests()[0]?.run();
    expect(calls).toEqual(['outer before', 'inner before', 'case', 'inner after', 'outer after']);
  });

  it('runs the after hooks of a failing case and still reports its failure', async () => {
    const runner = createCollector();
    let closed = false;
    runner.afterEach(() => (closed = true));
    runner.it('fails', async () => {
      throw new RangeError('boom');
    });
    await expect(runner.tests()[0]?.run()).rejects.toBeInstanceOf(RangeError);
    expect(closed).toBe(true);
  });
});

describe('titleOf names a table row as vitest does', () => {
  it.each([
    ['%s and %s', ['a', 1], 'a and 1'],
    ['%j at %#', [{ a: 1 }], '{"a":1} at 2'],
    ['$error.name has $code', { error: new RangeError('x'), code: 'c' }, 'RangeError has c'],
    ['plain %s', 'value', 'plain value'],
  ])('%s', (template, row, title) => {
    expect(titleOf(template, row, 2)).toBe(title);
  });
});
