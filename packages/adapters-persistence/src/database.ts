import { InvalidDatabaseUrlError, parseDatabaseUrl, type DatabaseLocation } from './database-url';
import { openPostgresDatabase } from './postgres/postgres-database';
import type { Database, DatabaseOptions } from './shared/database-handle';
import { openSqliteDatabase } from './sqlite/sqlite-database';

export async function openDatabase(location: DatabaseLocation, options: DatabaseOptions = {}): Promise<Database> {
  if (location.dialect === 'postgres') return openPostgresDatabase(location.url, options);
  const path = location.path ?? parseDatabaseUrl(location.url).path;
  if (path === undefined) throw new InvalidDatabaseUrlError('The database URL does not name an SQLite file.');
  return openSqliteDatabase(path, options);
}
