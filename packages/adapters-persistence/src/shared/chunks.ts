/**
 * Rows per multi-row INSERT: 1,000 rows of users' 9 columns stay under both drivers' bound
 * parameter limits (SQLite 32,766, PostgreSQL 65,535) with room for wider tables.
 */
export const ROWS_PER_INSERT = 1000;

/** `items` in consecutive slices of at most `size`. */
export function* chunks<T>(items: readonly T[], size: number): Generator<T[]> {
  for (let start = 0; start < items.length; start += size) yield items.slice(start, start + size);
}
