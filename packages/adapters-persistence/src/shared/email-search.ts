/**
 * Trigram indexes (SQLite's FTS5 `trigram` tokenizer) index every run of three characters, so
 * a shorter term cannot be looked up in them and is matched by scanning instead.
 */
const TRIGRAM_LENGTH = 3;

/** Whether a trigram index can find `term`: it has at least three characters (code points). */
export function isTrigramSearchable(term: string): boolean {
  return [...term].length >= TRIGRAM_LENGTH;
}

/**
 * An FTS5 query matching `term` as a substring: one phrase, in which FTS5 gives no character
 * but the double quote (doubled here) a meaning, so `%`, `_` and `\` stay literal.
 */
export function ftsPhrase(term: string): string {
  return `"${term.replaceAll('"', '""')}"`;
}
