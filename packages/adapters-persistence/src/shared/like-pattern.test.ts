import { describe, expect, it } from 'vitest';
import { containsPattern } from './like-pattern';

describe('containsPattern()', () => {
  it('matches the term anywhere', () => {
    expect(containsPattern('alice')).toBe('%alice%');
  });

  it('escapes %, _ and \\ so that each matches itself', () => {
    expect(containsPattern('a%b_c\\d')).toBe('%a\\%b\\_c\\\\d%');
    expect(containsPattern('\\%')).toBe('%\\\\\\%%');
  });
});
