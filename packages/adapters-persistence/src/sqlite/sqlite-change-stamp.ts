import { sql } from 'drizzle-orm';
import { preparedOnUse } from './prepared-on-use';
import type { SqliteDb } from './sqlite-db';

/**
 * Results of one connection's reads, held while nothing in the file changes. What a connection
 * has seen change is its stamp: SQLite's `data_version` (moved by every commit of any other
 * connection to the file, in this process or another) and the rows this connection has written
 * (`total_changes()`, counted per statement, triggers included, rolled back or not). While both
 * stay the same, a result read since is still exact; a moved stamp may be a write that changed
 * nothing a result holds (it is then merely read again). At most `limit` results are held.
 */
export class HeldWhileUnchanged<Result> {
  private readonly stampOf = preparedOnUse(() =>
    this.db
      .select({ version: sql<number>`data_version`, changes: sql<number>`total_changes()` })
      .from(sql`pragma_data_version`)
      .prepare(),
  );
  private held = { stamp: '', results: new Map<string, Result>() };

  constructor(
    private readonly db: SqliteDb,
    private readonly limit: number,
  ) {}

  /**
   * The results held for the file as it is now (one small statement, outside any transaction):
   * none once it has changed. A result read after this call may be added to them.
   */
  now(): { get(key: string): Result | undefined; add(key: string, result: Result): void } {
    const stamp = this.stampOf().get();
    const now = `${stamp?.version}:${stamp?.changes}`;
    if (now !== this.held.stamp) this.held = { stamp: now, results: new Map() };
    const { results } = this.held;
    return {
      get: (key) => results.get(key),
      add: (key, result) => {
        if (results.size < this.limit) results.set(key, result);
      },
    };
  }
}
