import type { PostgresJsDatabase } from 'drizzle-orm/postgres-js';

/** The Drizzle handle over the postgres.js pool. */
export type PostgresDb = PostgresJsDatabase;

/** A transaction on that pool, as `db.transaction` hands it to its callback. */
export type PostgresTx = Parameters<Parameters<PostgresDb['transaction']>[0]>[0];
