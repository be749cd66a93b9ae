import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/** How far a database is through the committed migrations. */
export interface MigrationStatus {
  applied: number;
  /** Tags of the committed migrations not applied yet, in order. */
  pending: string[];
}

/**
 * Compares the migrations the folder's journal lists with the number of rows in Drizzle's
 * bookkeeping table (which applies them in journal order, one row each).
 */
export function migrationStatus(folder: string, applied: number): MigrationStatus {
  const journal = JSON.parse(readFileSync(join(folder, 'meta', '_journal.json'), 'utf8')) as {
    entries: { tag: string }[];
  };
  return { applied, pending: journal.entries.slice(applied).map((entry) => entry.tag) };
}
