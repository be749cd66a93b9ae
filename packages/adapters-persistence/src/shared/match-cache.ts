import type { PageWindow } from './page-window';

/**
 * Ids in order, packed: all their characters in one string, and where each one ends. A UUID
 * costs 40 bytes (36 characters of one byte and a 4-byte end), where in an array of strings it
 * costs 63 on Node.js 20 and is one more object for the collector to trace; and the ids cross
 * from a read worker as two values rather than one per id.
 */
export interface PackedIds {
  chars: string;
  ends: Uint32Array;
}

/**
 * What a search matches at one generation of the users table: how many users, and the ids of
 * the first of them in (created, id) order: all of them, unless there were more than its
 * reader puts in order or than TERM_BYTES holds.
 */
export interface Matches {
  total: number;
  ids: PackedIds;
}

/**
 * The most a term's ids may take (about 26,000 UUIDs, where a search reads at most 20,000 in
 * order): a term matching more keeps the first that fit, and its later pages are read from the
 * database.
 */
export const TERM_BYTES = 1 << 20;
/**
 * The most one cache holds (about 1.6 million UUIDs: every domain's matches in the benchmark's
 * million users take 40 MiB), the least recently used terms going first past it.
 */
const CACHE_BYTES = 64 << 20;
/** Terms held at most, however few ids each holds. */
const TERMS_HELD = 10_000;

/** Bytes a character of an id takes: one for Latin-1, two past it (V8's two string widths). */
const charBytes = (chars: string) => (/[\u0100-\uffff]/.test(chars) ? 2 : 1);

/** What the packed ids take in memory (their characters and their ends). */
export const bytesOf = ({ chars, ends }: PackedIds) => chars.length * charBytes(chars) + ends.byteLength;

/**
 * The matches of a search: `total` users, the first of which are `ordered` (all of them by
 * default), keeping as many of those as TERM_BYTES holds.
 */
export function matchesOf(ordered: readonly string[], total = ordered.length): Matches {
  const all = ordered.join('');
  const width = charBytes(all);
  let bytes = 0;
  let kept = 0;
  while (kept < ordered.length && bytes + ordered[kept]!.length * width + 4 <= TERM_BYTES)
    bytes += ordered[kept++]!.length * width + 4;
  const ends = new Uint32Array(kept);
  let end = 0;
  for (let at = 0; at < kept; at++) ends[at] = end += ordered[at]!.length;
  // A slice of `all` would keep all of it alive: the ids kept are joined again instead.
  const chars = kept === ordered.length ? all : ordered.slice(0, kept).join('');
  return { total, ids: { chars, ends } };
}

/** The ids of the page in `window`, in (created, id) order, when the matches hold them. */
export function idsOfWindow({ total, ids: { chars, ends } }: Matches, window: PageWindow): string[] | undefined {
  const { descending, offset, limit } = window;
  // Its place from the start: a window read from the far end counts from the last match.
  const first = descending ? total - offset - limit : offset;
  if (first + limit > ends.length) return undefined;
  return Array.from({ length: limit }, (_, at) =>
    chars.slice(first + at === 0 ? 0 : ends[first + at - 1], ends[first + at]),
  );
}

/**
 * Searches' matches by term, each valid for one generation of the users table only: a counter
 * in the database that every insert, delete and change of email or `created` moves to a value it
 * never had, in the same transaction. A list reads the generation in the snapshot it reads the
 * page in, so a cached total or page is used only where the table's matches are what they were
 * when it was read, whichever process or instance changed them since. Counting a common term
 * costs reading every match; a repeated search (any page of it, the same term typed again, many
 * admins) then costs what a page of ids costs. It holds CACHE_BYTES of ids at most.
 */
export class MatchCache {
  private readonly entries = new Map<string, { generation: string; matches: Matches }>();
  private held = 0;

  /** Bytes of ids held now. */
  get bytes(): number {
    return this.held;
  }

  /** Whether it holds the term's matches at some generation (perhaps not the current one). */
  has(term: string): boolean {
    return this.entries.has(term);
  }

  get(term: string, generation: string): Matches | undefined {
    const entry = this.entries.get(term);
    if (entry?.generation !== generation) return undefined;
    // Most recently used last: Map keeps insertion order.
    this.entries.delete(term);
    this.entries.set(term, entry);
    return entry.matches;
  }

  set(term: string, generation: string, matches: Matches): void {
    this.remove(term);
    this.entries.set(term, { generation, matches });
    this.held += bytesOf(matches.ids);
    for (const oldest of this.entries.keys()) {
      if (this.held <= CACHE_BYTES && this.entries.size <= TERMS_HELD) break;
      this.remove(oldest);
    }
  }

  private remove(term: string): void {
    const entry = this.entries.get(term);
    if (!entry) return;
    this.held -= bytesOf(entry.matches.ids);
    this.entries.delete(term);
  }
}
