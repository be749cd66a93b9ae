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

/**
 * What a connection's handle and every transaction on it share (Drizzle gives a transaction its
 * handle's session, which runs every statement on the one connection): a key for what is kept
 * per connection.
 */
export function sessionOf(db: SqliteDb): object {
  return (db as unknown as { session: object }).session;
}
