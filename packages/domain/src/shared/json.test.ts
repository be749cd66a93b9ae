import { describe, expect, it } from '../testing/test-api.ts';
import {
  isJsonObject,
  isStorableJson,
  isStorableText,
  jsonByteLength,
  utf8ByteLength,
  type JsonValue,
} from './json.ts';

describe('utf8ByteLength', () => {
  it('counts UTF-8 bytes, not UTF-16 code units', () => {
    expect(['abc', 'é', '€', '🐢', ''].map(utf8ByteLength)).toEqual([3, 2, 3, 4, 0]);
  });
});

describe('jsonByteLength', () => {
  it('is the UTF-8 length of the JSON text', () => {
    expect(jsonByteLength({})).toBe(2);
    expect(jsonByteLength({ a: 'ż' })).toBe('{"a":"ż"}'.length + 1);
  });

  it('is the JSON length, or Infinity where the engine runs out of stack: never a thrown RangeError', () => {
    const deep = JSON.parse(`${'['.repeat(200_000)}${']'.repeat(200_000)}`) as JsonValue;
    // Newer engines (Deno's, Chromium's) serialise this depth; older ones run out of stack.
    expect([400_000, Number.POSITIVE_INFINITY]).toContain(jsonByteLength(deep));
  });
});

describe('isStorableText and isStorableJson', () => {
  it('refuse NUL and lone surrogates, and accept every well-formed text, surrogate pairs included', () => {
    expect(['', 'abc', 'żółw 🐢', '\ud83d\udc22'].map(isStorableText)).toEqual([true, true, true, true]);
    expect(['a\u0000', '\ud800', 'x\udc00y', '\udc00\ud800'].map(isStorableText)).toEqual([false, false, false, false]);
  });

  it('look at every key and string of a JSON value, however deep', () => {
    expect(isStorableJson({ a: [1, true, null, { b: 'ok 🐢' }] })).toBe(true);
    expect(isStorableJson({ a: [{ b: 'x\u0000' }] })).toBe(false);
    expect(isStorableJson({ 'k\ud800': 1 })).toBe(false);
  });

  it('refuse numbers JSON cannot carry, such as the Infinity that JSON.parse makes of 1e400', () => {
    expect(isStorableJson(JSON.parse('{"n": 1e400}'))).toBe(false);
    expect(isStorableJson({ n: [Number.NaN] })).toBe(false);
    expect(isStorableJson({ n: 1.5e300, m: -0 })).toBe(true);
  });
});

describe('isJsonObject', () => {
  it('accepts plain objects only: not arrays, null or scalars', () => {
    expect([{}, { a: [1] }, [], null, 'x', 1, true, undefined].map(isJsonObject)).toEqual([
      true,
      true,
      false,
      false,
      false,
      false,
      false,
      false,
    ]);
  });
});
