import type { PageWindow } from './page-window';

/**
 * What a search matches at one generation of the users table: how many users, and the ids of
 * the first and the last of them in (created, id) order (all of them when they are few), or none
 * when there were too many to read them in order.
 */
export interface Matches {
  total: number;
  head: readonly string[];
  tail: readonly string[];
}

/** Ids kept from each end of a search's matches: the first and last 25 pages of 20. */
export const ENDS_HELD = 500;

/** Ids held by one cache at most (a few megabytes), the least recently used terms going first. */
const IDS_HELD = 100_000;
/** Terms held at most, however few ids each holds. */
const TERMS_HELD = 10_000;

/** The matches of a search, from all its ids in (created, id) order. */
export function matchesOf(ordered: readonly string[]): Matches {
  const head = ordered.slice(0, ENDS_HELD);
  return { total: ordered.length, head, tail: ordered.length <= ENDS_HELD ? head : ordered.slice(-ENDS_HELD) };
}

/** The ids of the page in `window`, in (created, id) order, when the matches hold them. */
export function idsOfWindow({ head, tail }: Matches, { descending, offset, limit }: PageWindow): string[] | undefined {
  if (!descending) return offset + limit <= head.length ? head.slice(offset, offset + limit) : undefined;
  return offset + limit <= tail.length ? tail.slice(tail.length - offset - limit, tail.length - offset) : undefined;
}

/**
 * Searches' matches by term, each valid for one generation of the users table only: a counter
 * in the database that every insert, delete and change of email or `created` moves to a value it
 * never had, in the same transaction. A list reads the generation in the snapshot it reads the
 * page in, so a cached total or page is used only where the table's matches are what they were
 * when it was read, whichever process or instance changed them since. Counting a common term
 * costs reading every match; a repeated search (the next page, the same term typed again, many
 * admins) then costs what a page of ids costs.
 */
export class MatchCache {
  private readonly entries = new Map<string, { generation: string; matches: Matches }>();
  private held = 0;

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
    this.held += size(matches);
    for (const oldest of this.entries.keys()) {
      if (this.held <= IDS_HELD && this.entries.size <= TERMS_HELD) break;
      this.remove(oldest);
    }
  }

  private remove(term: string): void {
    const entry = this.entries.get(term);
    if (!entry) return;
    this.held -= size(entry.matches);
    this.entries.delete(term);
  }
}

const size = ({ head, tail }: Matches) => head.length + (tail === head ? 0 : tail.length);
