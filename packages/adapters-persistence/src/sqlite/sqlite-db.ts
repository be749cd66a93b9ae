import type { Database } from 'better-sqlite3';
import type { BetterSQLite3Database } from 'drizzle-orm/better-sqlite3';

/** The Drizzle handle over one better-sqlite3 connection. Its queries run synchronously. */
export type SqliteDb = BetterSQLite3Database;

/**
 * The connection under `db`, for statements Drizzle would compile on every call (pragmas,
 * savepoints). drizzle() gives its handle the connection as `$client`; SqliteDb leaves it out of
 * the type so that a transaction fits it too, and a transaction has none: pass the handle.
 */
export function connectionOf(db: SqliteDb): Database {
  return (db as SqliteDb & { $client: Database }).$client;
}
