export {
  describeDatabaseLocation,
  InvalidDatabaseUrlError,
  parseDatabaseUrl,
  type DatabaseDialect,
  type DatabaseLocation,
} from './database-url';
export { openDatabase } from './database';
export { isConnectionFailure } from './shared/driver-errors';
export type { Database, DatabaseOptions } from './shared/database-handle';
export { isPostgresSchemaName } from './postgres/postgres-database';
export type { MigrationStatus } from './shared/migration-status';
