import type { BetterSQLite3Database } from 'drizzle-orm/better-sqlite3';

/** The Drizzle handle over one better-sqlite3 connection. Its queries run synchronously. */
export type SqliteDb = BetterSQLite3Database;
