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
export const SQLITE_DRIVER =
  Number(process.versions.node.split('.')[0]) >= 22 ? 'better-sqlite3' : 'better-sqlite3-node20';

export const SqliteConnection: typeof BetterSqlite3 = createRequire(import.meta.url)(SQLITE_DRIVER);
export type SqliteConnection = BetterSqlite3.Database;
