import { describe, expect, it } from 'vitest';
import { isJsonObject, jsonByteLength, utf8ByteLength } from './json';

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
});

describe('isJsonObject', () => {
  it('accepts plain objects only: not arrays, null or scalars', () => {
    expect([{}, { a: [1] }, [], null, 'x', 1, true, undefined].map(isJsonObject)).toEqual([
      true, true, false, false, false, false, false, false,
    ]);
  });
});
