import type { Repositories } from '@uas/domain';
import type { DatabaseDialect } from '../database-url';
import type { MigrationStatus } from './migration-status';

// What both dialects' openers take and return, apart from the opener that picks one, so that
// they need not import it back.

/** How PostgreSQL statements are sent: see DatabaseOptions.preparedStatements. */
export type PreparedStatements = boolean | 'pooled';

export interface DatabaseOptions {
  /** PostgreSQL: connections in the pool. Default 10. */
  poolSize?: number;
  /** PostgreSQL: longest a statement may run before the server cancels it. Default 5000. */
  statementTimeoutMs?: number;
  /**
   * PostgreSQL: send statements as named prepared statements (see postgres-prepared-client.ts),
   * parsed once per connection (true, the default); or named by their text (`pooled`), parsed once
   * per server connection behind a pooler in transaction mode that does not keep them across
   * transactions (PgBouncer before 1.21, or without max_prepared_statements), whichever client
   * prepared them there; or unnamed, parsed at every call (false).
   */
  preparedStatements?: PreparedStatements;
  /** PostgreSQL: keep every table, and the migrations' bookkeeping, in this schema. */
  schema?: string;
  /**
   * SQLite: list queries run on this many worker threads, each with its own read-only
   * connection, instead of on the event loop. Default 0 (on the event loop).
   */
  readWorkers?: number;
  /**
   * SQLite: the connections that run user lists read the file through a memory map (see
   * MMAP_BYTES). Default true; a one-pass bulk job turns it off, since every page it touched
   * would otherwise stay in its resident memory.
   */
  memoryMap?: boolean;
}

export interface Database {
  readonly dialect: DatabaseDialect;
  readonly repositories: Repositories;
  /** Applies the committed migrations not applied yet; a second run applies nothing and loses nothing. */
  migrate(): Promise<void>;
  /** How many committed migrations are applied, and which are not yet; changes nothing. */
  migrationStatus(): Promise<MigrationStatus>;
  /**
   * Runs `fn` while no other instance starting on this database runs its own: migrations, the
   * admin bootstrap and the first signing key happen once, not once per racing instance.
   */
  withStartupLock<T>(fn: () => Promise<T>): Promise<T>;
  /** A cheap round trip, for health checks. */
  ping(): Promise<void>;
  /** Lets go of the pool or file; calling it again does nothing. */
  close(): Promise<void>;
}
