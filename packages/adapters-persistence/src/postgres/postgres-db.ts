import type { PostgresJsDatabase } from 'drizzle-orm/postgres-js';

/** The Drizzle handle over the postgres.js pool. */
export type PostgresDb = PostgresJsDatabase;
