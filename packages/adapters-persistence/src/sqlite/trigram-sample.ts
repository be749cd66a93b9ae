import { ftsPhrase } from '../shared/email-search';

/** Emails read to estimate how common each trigram is. */
const SAMPLE_SIZE = 2_000;

/**
 * A trigram in at most this share of the sampled emails is rare enough to look up: its list in
 * the trigram index is short. The seeded domains (`@org42.`) hold 1 % each.
 */
const RARE_SHARE = 0.02;

/** The sample is taken again when the table has grown or shrunk by more than this share. */
const RESAMPLE_DRIFT = 0.1;

function trigramsOf(text: string): Set<string> {
  const chars = [...text];
  const found = new Set<string>();
  for (let at = 0; at + 3 <= chars.length; at++) found.add(chars.slice(at, at + 3).join(''));
  return found;
}

/**
 * How common each trigram of the emails is, estimated from a sample of them. FTS5 reads the list
 * of every trigram of a phrase, and trigrams every email holds (`use`, `@or`, `.ex`) have a list
 * as long as the table: a term whose rarer trigrams are looked up alone, and its candidates then
 * checked with LIKE, costs the rare lists instead. The estimate only chooses the lists; the LIKE
 * decides what matches, so a stale or skewed sample costs time, never a wrong result.
 */
export class TrigramSample {
  private counts = new Map<string, number>();
  private sampled = 0;
  private sampledAt = -1;

  /** Takes the sample again when `everyone` (the table's size) has drifted since the last one. */
  refresh(everyone: number, read: (size: number) => readonly string[]): void {
    if (this.sampledAt >= 0 && Math.abs(everyone - this.sampledAt) <= this.sampledAt * RESAMPLE_DRIFT) return;
    const emails = read(SAMPLE_SIZE);
    this.counts = new Map();
    for (const email of emails)
      for (const trigram of trigramsOf(email)) this.counts.set(trigram, (this.counts.get(trigram) ?? 0) + 1);
    this.sampled = emails.length;
    this.sampledAt = everyone;
  }

  /**
   * An FTS5 query of the term's rare trigrams (each a phrase, all required), or undefined when
   * none is rare and the whole phrase is the cheaper query.
   */
  rareQuery(term: string): string | undefined {
    const chars = [...term];
    const rare: Rare[] = [];
    for (let at = 0; at + 3 <= chars.length; at++) {
      const trigram = chars.slice(at, at + 3).join('');
      const count = this.counts.get(trigram) ?? 0;
      if (count <= this.sampled * RARE_SHARE && !rare.some((seen) => seen.trigram === trigram))
        rare.push({ trigram, at, count });
    }
    return rare.length === 0
      ? undefined
      : lookedUp(rare)
          .map(({ trigram }) => ftsPhrase(trigram))
          .join(' AND ');
  }
}

interface Rare {
  trigram: string;
  /** Where it starts in the term, in code points. */
  at: number;
  /** In how many sampled emails. */
  count: number;
}

/**
 * Which of a term's rare trigrams to look up, in the term's order: two at most. FTS5 reads the
 * whole list of each (a rare one still holds over ten thousand rows at a million users), while
 * two that do not overlap leave a few dozen candidates, which the LIKE checks for less than one
 * more list costs. So: the pair that do not overlap with the fewest sampled emails between them
 * (two overlapping trigrams are nearly one longer run, and leave many more candidates), else the
 * two rarest.
 */
function lookedUp(rare: readonly Rare[]): Rare[] {
  if (rare.length <= 2) return [...rare];
  let best: [Rare, Rare] | undefined;
  for (const [index, first] of rare.entries())
    for (const second of rare.slice(index + 1))
      if (Math.abs(first.at - second.at) >= 3 && (!best || first.count * second.count < best[0].count * best[1].count))
        best = [first, second];
  const pair = best ?? [...rare].sort((a, b) => a.count - b.count || a.at - b.at).slice(0, 2);
  return pair.sort((a, b) => a.at - b.at);
}
