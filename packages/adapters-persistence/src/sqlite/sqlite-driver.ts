import { createRequire } from 'node:module';
import type BetterSqlite3 from 'better-sqlite3';

/**
 * The better-sqlite3 that fits the running Node.js. From Node.js 24.19 on, better-sqlite3 12
 * (built on Node's own ObjectWrap) aborts the process when a statement is garbage-collected
 * outside a JavaScript context ("Assertion failed: (env) != nullptr"); 13 is built on Node-API
 * and does not, but needs Node.js 22 and crashes Node.js 20. So Node.js 22 and later load 13,
 * and Node.js 20, until its support ends, loads 12 (installed as `better-sqlite3-node20`). Both
 * have the same API.
 */
export const NODE20_SQLITE_DRIVER = 'better-sqlite3-node20';

export const SQLITE_DRIVER =
  Number(process.versions.node.split('.')[0]) >= 22 ? 'better-sqlite3' : NODE20_SQLITE_DRIVER;

export type SqliteConnection = BetterSqlite3.Database;

let driver: typeof BetterSqlite3 | undefined;

/**
 * A connection through the driver of this Node.js, loaded at the first one: a driver that is
 * missing or built for another Node.js then fails the opening of the database, which says so,
 * rather than the loading of the program.
 */
export function openSqliteConnection(path: string, options?: BetterSqlite3.Options): SqliteConnection {
  driver ??= createRequire(import.meta.url)(SQLITE_DRIVER) as typeof BetterSqlite3;
  return new driver(path, options);
}
