import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import postgres from 'postgres';
import type { DatabaseLocation, DatabaseOptions } from '@uas/adapters-persistence';
import { asSchemaRole, createSchemaRole, dropSchemaRole, type TestPgBouncer } from '../scripts/pgbouncer';

/** Where `--postgres` finds PostgreSQL unless BENCH_DATABASE_URL says otherwise. */
export const LOCAL_POSTGRES_URL = 'postgres://postgres@127.0.0.1:5432/test';

/** A fresh, empty database for one benchmark run, and how to remove it. */
export interface BenchDatabase {
  /** What the run's table is labelled with. */
  readonly label: string;
  /** What the report should say of how the database was set up. */
  readonly notes: string;
  /** DATABASE_URL and, on PostgreSQL, DATABASE_SCHEMA for the server. */
  readonly env: Record<string, string>;
  /** The same database, for seeding it through the persistence adapter. */
  readonly location: DatabaseLocation;
  readonly options: DatabaseOptions;
  /**
   * After seeding, on PostgreSQL: VACUUM ANALYZE the schema's tables, as autovacuum would within
   * a minute or so. Until then the planner knows nothing of the new users (and serves
   * `search[email]` by walking every row in `created` order instead of the trigram index), and
   * without a visibility map no index-only scan can skip the rows of the pages it steps over.
   */
  analyze(): Promise<void>;
  /** PostgreSQL: DATABASE_URL and DATABASE_SCHEMA through `pooler`, as the schema's own role. */
  throughPooler(pooler: TestPgBouncer): Promise<Record<string, string>>;
  drop(): Promise<void>;
}

/** A new SQLite file in `directory` (the run's temporary directory, removed with it). */
export function sqliteDatabase(directory: string): BenchDatabase {
  const nothing = async () => {};
  const path = join(directory, 'bench.db');
  const url = `sqlite:${path}`;
  return {
    label: 'SQLite',
    notes: `A new file, ${path}.`,
    env: { DATABASE_URL: url },
    location: { dialect: 'sqlite', url, path },
    options: {},
    analyze: nothing,
    throughPooler: () => Promise.reject(new Error('SQLite has no pooler')),
    drop: nothing,
  };
}

/** A new schema of its own on the PostgreSQL server at `url`, dropped with everything in it by `drop()`. */
export async function postgresDatabase(url: string): Promise<BenchDatabase> {
  const schema = `uas_bench_${randomBytes(6).toString('hex')}`;
  const sql = postgres(url, { max: 1, connect_timeout: 5, onnotice: () => {} });
  try {
    await sql`create schema ${sql(schema)}`;
  } catch (error) {
    await sql.end({ timeout: 1 });
    throw new Error(`PostgreSQL is unreachable at ${new URL(url).host}: ${(error as { code?: string }).code ?? error}`);
  }
  const [server] = await sql<{ version: string }[]>`select current_setting('server_version') as version`;
  let withRole = false;
  return {
    label: `PostgreSQL ${server?.version.split(' ')[0] ?? ''}`,
    notes: `A new schema, ${schema}, on ${new URL(url).host}; its tables VACUUM ANALYZEd after seeding, as autovacuum would.`,
    env: { DATABASE_URL: url, DATABASE_SCHEMA: schema },
    location: { dialect: 'postgres', url },
    options: { schema },
    async analyze() {
      for (const { name } of await sql<
        { name: string }[]
      >`select tablename as name from pg_tables where schemaname = ${schema}`) {
        await sql`vacuum analyze ${sql(schema)}.${sql(name)}`;
      }
    },
    async throughPooler(pooler) {
      await createSchemaRole(sql, schema);
      withRole = true;
      return { DATABASE_URL: asSchemaRole(pooler.through(url), schema), DATABASE_SCHEMA: schema };
    },
    async drop() {
      await sql`drop schema if exists ${sql(schema)} cascade`;
      if (withRole) await dropSchemaRole(sql, schema);
      await sql.end({ timeout: 5 });
    },
  };
}
