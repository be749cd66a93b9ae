import { sql, type Column, type SQL } from 'drizzle-orm';

/**
 * A LIKE pattern matching `term` anywhere, with `%`, `_` and `\` in it taken literally. The term
 * is lower-cased because stored emails are.
 */
export function containsPattern(term: string): string {
  return `%${term.toLowerCase().replace(/[\\%_]/g, (char) => `\\${char}`)}%`;
}

/**
 * `column LIKE '%term%' ESCAPE '\'`. SQLite's LIKE already ignores ASCII case; PostgreSQL passes
 * `ilike`, which its trigram index serves as well.
 */
export function columnContains(column: Column, term: string, operator: 'like' | 'ilike'): SQL {
  return sql`${column} ${sql.raw(operator)} ${containsPattern(term)} escape '\\'`;
}
