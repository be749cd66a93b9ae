import { openSqliteConnection } from '../sqlite/sqlite-driver';
import postgres from 'postgres';
import { parseDatabaseUrl } from '../database-url';

/**
 * Runs one read-only query straight against a database a running (or stopped) service writes to,
 * for tests that must look beneath the API: how many admins a race left, which migrations ran.
 * `url` is a DATABASE_URL as the service takes it; `schema` its DATABASE_SCHEMA, if any.
 */
export async function queryTestDatabase<Row extends Record<string, unknown>>(
  { url, schema }: { url: string; schema?: string | undefined },
  sql: string,
): Promise<Row[]> {
  const location = parseDatabaseUrl(url);
  if (location.dialect === 'sqlite') {
    const client = openSqliteConnection(location.path ?? '', { readonly: true, fileMustExist: true });
    try {
      return client.prepare(sql).all() as Row[];
    } finally {
      client.close();
    }
  }
  const client = postgres(url, { max: 1, onnotice: () => {}, connection: schema ? { search_path: schema } : {} });
  try {
    return (await client.unsafe(sql)) as unknown as Row[];
  } finally {
    await client.end({ timeout: 5 });
  }
}
