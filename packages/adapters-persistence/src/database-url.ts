import { fileURLToPath } from 'node:url';

export type DatabaseDialect = 'sqlite' | 'postgres';

export interface DatabaseLocation {
  dialect: DatabaseDialect;
  url: string;
  /** SQLite only: the database file, or ':memory:'. */
  path?: string;
}

/** A database URL that names no backend this service runs on. The message never repeats the URL. */
export class InvalidDatabaseUrlError extends Error {
  override readonly name = 'InvalidDatabaseUrlError';
}

const EXPECTED = 'expected sqlite:<path>, file:<path>, postgres://… or postgresql://…';

/**
 * Reads `sqlite:<path>` and `file:<path>` (SQLite; `sqlite::memory:` for an in-memory database)
 * and `postgres://…` / `postgresql://…` (PostgreSQL).
 */
export function parseDatabaseUrl(url: string): DatabaseLocation {
  const scheme = /^([a-z][a-z0-9+.-]*):/i.exec(url)?.[1]?.toLowerCase();
  switch (scheme) {
    case 'sqlite':
    case 'file':
      return { dialect: 'sqlite', url, path: sqlitePath(url.slice(scheme.length + 1)) };
    case 'postgres':
    case 'postgresql':
      if (!URL.canParse(url))
        throw new InvalidDatabaseUrlError(`The database URL is not a well-formed ${scheme}:// URL.`);
      return { dialect: 'postgres', url };
    default:
      // The scheme alone is safe to repeat; anything after it may hold a password.
      throw new InvalidDatabaseUrlError(
        scheme
          ? `The database URL has the unsupported scheme "${scheme}:"; ${EXPECTED}.`
          : `The database URL has no scheme; ${EXPECTED}.`,
      );
  }
}

/**
 * Where a database is, for messages an operator reads: the SQLite file, or PostgreSQL's host, port
 * and database name. Never the user name, password or query parameters of the URL.
 */
export function describeDatabaseLocation(location: DatabaseLocation): string {
  if (location.dialect === 'sqlite') return `the SQLite file ${location.path ?? ''}`;
  const { hostname, port, pathname, searchParams } = new URL(location.url);
  const host = hostname || searchParams.get('host') || 'localhost';
  return `PostgreSQL at ${host}:${port || '5432'}${pathname || '/'}`;
}

function sqlitePath(rest: string): string {
  // `sqlite:///abs/path` and `file:///abs/path` are URL forms: decode them as file URLs.
  if (rest.startsWith('//')) {
    try {
      return fileURLToPath(`file:${rest}`);
    } catch {
      throw new InvalidDatabaseUrlError(
        'The SQLite URL names a host; write sqlite:<path>, for example sqlite:./data/app.db.',
      );
    }
  }
  if (rest === '')
    throw new InvalidDatabaseUrlError(
      'The SQLite URL names no file; write sqlite:<path>, for example sqlite:./data/app.db.',
    );
  return rest;
}
