import { describe, expect, it } from 'vitest';
import { TrigramSample } from './trigram-sample';

// 100 emails: every one holds `use`, `@or`, `.ex`; each domain `@orgNN.` holds 1 %.
const emails = Array.from({ length: 100 }, (_, n) => `user${String(n).padStart(4, '0')}@org${n}.example`);

function sampled(from: readonly string[]): TrigramSample {
  const sample = new TrigramSample();
  sample.refresh(from.length, () => from);
  return sample;
}

describe('TrigramSample', () => {
  it('looks up only the trigrams of a term that few sampled emails hold', () => {
    expect(sampled(emails).rareQuery('@org42.')).toBe('"g42" AND "42."');
  });

  it('looks up the pair of rare trigrams that do not overlap, else the two rarest', () => {
    const more = (...extra: string[]) => [...emails, ...extra];
    // `234` is the rarest, but overlaps every other trigram of `123456`: `123` and `456` do not.
    const sample = sampled(more('x123@a.b', 'x123@a.c', 'x234@a.b', 'x345@a.b', 'x345@a.c', 'x456@a.b', 'x456@a.c'));
    expect(sample.rareQuery('123456')).toBe('"123" AND "456"');
    // In `12345` every trigram overlaps the others.
    expect(sample.rareQuery('12345')).toBe('"123" AND "234"');
  });

  it('leaves a term whose every trigram is common to the whole phrase', () => {
    expect(sampled(emails).rareQuery('user00')).toBeUndefined();
  });

  it('quotes a trigram holding a double quote as FTS5 reads it', () => {
    expect(sampled(emails).rareQuery('a"b')).toBe('"a""b"');
  });

  it('samples again only once the table has drifted by more than a tenth', () => {
    const sample = new TrigramSample();
    let reads = 0;
    const read = () => {
      reads++;
      return emails;
    };
    sample.refresh(1000, read);
    sample.refresh(1100, read);
    expect(reads).toBe(1);
    sample.refresh(1101, read);
    expect(reads).toBe(2);
  });
});
