import { sql } from 'drizzle-orm';
import type { SqliteDb } from './sqlite-db';

/**
 * What a connection has seen change: SQLite's `data_version` (moved by every commit of any other
 * connection to the file, in this process or another) and the rows this connection has written
 * (`total_changes()`, counted per statement, triggers included, rolled back or not). While both
 * stay the same, nothing in the file has changed, so a result read since is still exact; a moved
 * stamp may be a write that changed nothing the result holds (it is then merely read again).
 */
export class ChangeStamp {
  private statement: { get(): { version: number; changes: number } | undefined } | undefined;

  constructor(private readonly db: SqliteDb) {}

  /** The stamp now, outside any transaction (one small statement, a few microseconds). */
  now(): string {
    // Prepared on first use, like the connection's other statements.
    this.statement ??= this.db
      .select({ version: sql<number>`data_version`, changes: sql<number>`total_changes()` })
      .from(sql`pragma_data_version`)
      .prepare();
    const stamp = this.statement.get();
    return `${stamp?.version}:${stamp?.changes}`;
  }
}
