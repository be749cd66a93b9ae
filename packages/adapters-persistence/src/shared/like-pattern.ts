import { sql, type Column, type SQL } from 'drizzle-orm';

/** A LIKE pattern matching `term` anywhere, with `%`, `_` and `\` in it taken literally. */
export function containsPattern(term: string): string {
  return `%${term.replace(/[\\%_]/g, (char) => `\\${char}`)}%`;
}

/**
 * `column LIKE '%term%' ESCAPE '\'`: case-insensitive because stored emails and the pattern are
 * both lower-cased. PostgreSQL's ILIKE would fold case again in every row it rechecks, a quarter
 * of a search's cost; its trigram index serves LIKE as well.
 */
export function columnContains(column: Column, term: string): SQL {
  return sql`${column} like ${containsPattern(term)} escape '\\'`;
}
