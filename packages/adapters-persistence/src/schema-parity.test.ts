import { openSqliteConnection } from './sqlite/sqlite-driver';
import postgres from 'postgres';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from './database';
import { parseDatabaseUrl } from './database-url';
import { createTestPostgresSchema, type TestPostgresSchema } from './testing/postgres-test-database';
import { createTemporarySqliteFile, type TemporarySqliteFile } from './testing/sqlite-test-database';

/** What both dialects must agree on: each table's columns with their nullability, and its indexes by name. */
type Catalogue = Record<string, { columns: Record<string, 'null' | 'not null'>; indexes: string[] }>;

/**
 * Each dialect's own way to the same end, which the other has no counterpart for: SQLite's
 * trigram search is an FTS5 table (`users_email_fts`, with its shadow tables) where PostgreSQL has a
 * trigram index on `users`.
 */
const SQLITE_ONLY_TABLE = /^users_email_fts(_|$)/;
const POSTGRES_ONLY_INDEXES = new Set(['users_email_trgm_idx']);
/** The order waiting audit events were recorded in, and OpenID records first stored: SQLite's rowid holds it without a column. */
const POSTGRES_ONLY_COLUMNS = new Set(['audit_pending.ord', 'openid_records.ord']);

function sqliteCatalogue(path: string): Catalogue {
  const client = openSqliteConnection(path, { readonly: true });
  try {
    const tables = client
      .prepare<[], { name: string }>(
        `select name from sqlite_schema where type = 'table' and name not like 'sqlite\\_%' escape '\\'
           and name not like '\\_\\_drizzle%' escape '\\'`,
      )
      .all()
      .filter(({ name }) => !SQLITE_ONLY_TABLE.test(name));
    const catalogue: Catalogue = {};
    for (const { name } of tables) {
      const columns = client
        .prepare<[string], { name: string; notnull: number; pk: number }>('select * from pragma_table_info(?)')
        .all(name);
      // Only indexes made by CREATE INDEX have their own names; the others are sqlite_autoindex_….
      const indexes = client
        .prepare<[string], { name: string }>(`select name from pragma_index_list(?) where origin = 'c'`)
        .all(name);
      catalogue[name] = {
        // A primary key column is never null, NOT NULL written or not.
        columns: Object.fromEntries(columns.map((c) => [c.name, c.notnull || c.pk ? 'not null' : 'null'])),
        indexes: indexes.map((index) => index.name).sort(),
      };
    }
    return catalogue;
  } finally {
    client.close();
  }
}

async function postgresCatalogue({ url, schema }: TestPostgresSchema): Promise<Catalogue> {
  const client = postgres(url, { max: 1, onnotice: () => {} });
  try {
    const columns = await client<{ table: string; column: string; nullable: 'YES' | 'NO' }[]>`
      select c.table_name as table, c.column_name as column, c.is_nullable as nullable
      from information_schema.columns c
      join information_schema.tables t on t.table_schema = c.table_schema and t.table_name = c.table_name
      where c.table_schema = ${schema} and t.table_type = 'BASE TABLE' and c.table_name not like '\_\_drizzle%'`;
    // A primary key's index is named by the constraint, which SQLite has no name for.
    const indexes = await client<{ table: string; name: string }[]>`
      select i.tablename as table, i.indexname as name
      from pg_indexes i
      where i.schemaname = ${schema} and i.tablename not like '\_\_drizzle%'
        and not exists (
          select from pg_constraint k join pg_namespace n on n.oid = k.connamespace
          where n.nspname = ${schema} and k.contype = 'p' and k.conname = i.indexname)`;
    const catalogue: Catalogue = {};
    for (const { table, column, nullable } of columns) {
      catalogue[table] ??= { columns: {}, indexes: [] };
      if (POSTGRES_ONLY_COLUMNS.has(`${table}.${column}`)) continue;
      catalogue[table].columns[column] = nullable === 'YES' ? 'null' : 'not null';
    }
    for (const { table, name } of indexes) {
      if (!POSTGRES_ONLY_INDEXES.has(name)) catalogue[table]?.indexes.push(name);
    }
    for (const entry of Object.values(catalogue)) entry.indexes.sort();
    return catalogue;
  } finally {
    await client.end({ timeout: 5 });
  }
}

describe('the SQLite and PostgreSQL schemas, once every migration ran', () => {
  let file: TemporarySqliteFile;
  let pg: TestPostgresSchema;
  let sqlite: Catalogue;
  let postgresql: Catalogue;

  beforeAll(async () => {
    file = createTemporarySqliteFile();
    pg = await createTestPostgresSchema();
    for (const database of [
      await openDatabase(parseDatabaseUrl(`sqlite:${file.path}`)),
      await openDatabase(parseDatabaseUrl(pg.url), pg.options),
    ]) {
      await database.migrate();
      await database.close();
    }
    sqlite = sqliteCatalogue(file.path);
    postgresql = await postgresCatalogue(pg);
  });

  afterAll(async () => {
    file?.remove();
    await pg?.drop();
  });

  it('have the same tables', () => {
    expect(Object.keys(sqlite).sort()).toEqual(Object.keys(postgresql).sort());
  });

  it('give each table the same columns, each nullable on both or on neither', () => {
    for (const table of Object.keys(postgresql)) {
      expect({ table, columns: sqlite[table]?.columns }).toEqual({ table, columns: postgresql[table]?.columns });
    }
  });

  it('give each table the same indexes, by name', () => {
    for (const table of Object.keys(postgresql)) {
      expect({ table, indexes: sqlite[table]?.indexes }).toEqual({ table, indexes: postgresql[table]?.indexes });
    }
  });
});
