import { type Column, Param, type SQL, sql } from 'drizzle-orm';

/**
 * One placeholder per column, named as the column's key (after `prefix`) and encoded as the column
 * encodes a value (a Date, JSON): a prepared insert or update of whole rows, given the row itself.
 */
export function placeholdersOf<Columns extends Record<string, Column>>(
  columns: Columns,
  prefix = '',
): Record<keyof Columns, SQL> {
  return Object.fromEntries(
    Object.entries(columns).map(([key, column]) => {
      // Null stays null, as Drizzle leaves it for a value it builds in (its placeholders it would encode).
      const encoder = {
        mapToDriverValue: (value: unknown) => (value === null ? null : column.mapToDriverValue(value)),
      };
      return [key, sql`${new Param(sql.placeholder(prefix + key), encoder)}`];
    }),
  ) as Record<keyof Columns, SQL>;
}
