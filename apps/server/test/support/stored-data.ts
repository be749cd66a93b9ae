import { existsSync, readFileSync } from 'node:fs';
import postgres from 'postgres';
import type { Config } from '../../src/config';

/** Every row of every table of the PostgreSQL schema, as text to search. */
async function postgresRows(config: Config): Promise<string> {
  const sql = postgres(config.database.url, { max: 1, onnotice: () => {} });
  try {
    const tables = await sql<{ name: string }[]>`
      select table_name as name from information_schema.tables where table_schema = ${config.databaseSchema ?? 'public'}`;
    const rows: string[] = [];
    for (const { name } of tables)
      for (const row of await sql.unsafe(`select t::text as row from "${config.databaseSchema}"."${name}" t`))
        rows.push(String(row.row));
    return rows.join('\n');
  } finally {
    await sql.end();
  }
}

/** Every byte of the SQLite file and its write-ahead log, as latin1 text to search. */
const sqliteBytes = (path: string) =>
  [path, `${path}-wal`]
    .filter((file) => existsSync(file))
    .map((file) => readFileSync(file).toString('latin1'))
    .join('');

/**
 * Everything the database holds, as text to search for what must never be stored: every byte of
 * the SQLite file and its WAL, or every row of every table of the PostgreSQL schema.
 */
export const storedData = async (config: Config): Promise<string> =>
  config.database.dialect === 'sqlite' ? sqliteBytes(config.database.path ?? '') : postgresRows(config);
