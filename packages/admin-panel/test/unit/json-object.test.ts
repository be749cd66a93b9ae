import { describe, expect, it } from 'vitest';
import { jsonEqual, parseJsonObject } from '../../src/state/json-object';

describe('parseJsonObject', () => {
  it('accepts a JSON object, and blank text as {}', () => {
    expect(parseJsonObject('{"plan":"pro"}')).toEqual({ ok: true, value: { plan: 'pro' } });
    expect(parseJsonObject('  ')).toEqual({ ok: true, value: {} });
  });

  it.each(['[]', 'null', '42', '"text"', 'true'])('refuses %s, which is JSON but not an object', (text) => {
    expect(parseJsonObject(text)).toMatchObject({ ok: false, problem: expect.stringContaining('JSON object') });
  });

  it('refuses text that is not JSON, saying so', () => {
    expect(parseJsonObject('{plan: pro}')).toMatchObject({
      ok: false,
      problem: expect.stringContaining('Not valid JSON'),
    });
  });
});

describe('jsonEqual', () => {
  it('ignores key order and compares deeply', () => {
    expect(jsonEqual({ a: 1, b: { c: [1, 2] } }, { b: { c: [1, 2] }, a: 1 })).toBe(true);
    expect(jsonEqual({ a: [1, 2] }, { a: [2, 1] })).toBe(false);
    expect(jsonEqual({ a: 1 }, { a: 1, b: undefined })).toBe(false);
    expect(jsonEqual({}, [])).toBe(false);
    expect(jsonEqual(null, {})).toBe(false);
  });
});
