export {
  describeDatabaseLocation,
  InvalidDatabaseUrlError,
  parseDatabaseUrl,
  type DatabaseDialect,
  type DatabaseLocation,
} from './database-url';
export { openDatabase, type Database, type DatabaseOptions } from './database';
export { isPostgresSchemaName } from './postgres/postgres-database';
export type { MigrationStatus } from './shared/migration-status';
