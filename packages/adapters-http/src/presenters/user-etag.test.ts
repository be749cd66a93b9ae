import { describe, expect, it } from 'vitest';
import { sampleUser } from '@uas/domain/testing';
import { ifMatchVersions, userETag } from './user-etag';

describe('userETag()', () => {
  it('is the version as a strong tag, the same for the same version and another for the next', () => {
    const user = sampleUser({ version: 7 });
    expect(userETag(user)).toBe('"7"');
    expect(userETag({ ...user, name: 'other name' })).toBe('"7"');
    expect(userETag({ ...user, version: 8 })).not.toBe(userETag(user));
  });
});

describe('ifMatchVersions()', () => {
  it.each([
    [undefined, undefined],
    ['*', undefined],
    [' * ', undefined],
    ['"3"', [3]],
    ['"3", "5"', [3, 5]],
    ['W/"3"', []],
    ['W/"3", "4"', [4]],
    ['3', []],
    ['"abc"', []],
    ['', []],
  ])('reads %j as %j', (header, versions) => {
    expect(ifMatchVersions(header)).toEqual(versions);
  });
});
