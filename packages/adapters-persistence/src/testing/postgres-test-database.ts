import { randomBytes } from 'node:crypto';
import postgres from 'postgres';

/** Where tests find PostgreSQL when neither TEST_DATABASE_URL nor a Docker engine is there. */
const LOCAL_TEST_DATABASE_URL = 'postgres://postgres@127.0.0.1:5432/test';

let server: Promise<string> | undefined;

/**
 * The PostgreSQL server for this test process: TEST_DATABASE_URL when set; else a throw-away
 * container when a Docker engine answers; else the local default. Rejects with a message saying
 * what was tried when the server does not answer: a test run must fail, never skip.
 */
function testPostgresServerUrl(): Promise<string> {
  return (server ??= locateServer());
}

async function locateServer(): Promise<string> {
  const fromEnvironment = process.env.TEST_DATABASE_URL;
  if (fromEnvironment) return answering(fromEnvironment, 'TEST_DATABASE_URL');
  const container = await startContainerIfDockerAnswers();
  if (container) return answering(container, 'the testcontainers PostgreSQL');
  return answering(LOCAL_TEST_DATABASE_URL, 'no TEST_DATABASE_URL, no Docker engine, so the local default');
}

async function startContainerIfDockerAnswers(): Promise<string | undefined> {
  const { getContainerRuntimeClient } = await import('testcontainers');
  try {
    await getContainerRuntimeClient();
  } catch {
    return undefined;
  }
  const { PostgreSqlContainer } = await import('@testcontainers/postgresql');
  // Ryuk, testcontainers' reaper, removes the container when this process ends.
  const container = await new PostgreSqlContainer('postgres:15-alpine').start();
  return container.getConnectionUri();
}

async function answering(url: string, source: string): Promise<string> {
  const probe = postgres(url, { max: 1, connect_timeout: 5, onnotice: () => {} });
  try {
    await probe`select 1`;
    return url;
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    throw new Error(
      `PostgreSQL for the tests is unreachable at ${withoutPassword(url)} (${source}): ${String(code ?? error)}. ` +
        'Start it, or set TEST_DATABASE_URL to a server that answers.',
    );
  } finally {
    await probe.end({ timeout: 1 });
  }
}

function withoutPassword(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = '***';
    return parsed.toString();
  } catch {
    return 'an unparsable URL';
  }
}

/** A schema of its own on the test server: what `openDatabase(…, { schema })` isolates a test run in. */
export interface TestPostgresSchema {
  /** The server's URL; pass `schema` as the `schema` option of openDatabase. */
  readonly url: string;
  readonly schema: string;
  /** Empties every table of the schema (but the migrations' bookkeeping). */
  truncate(): Promise<void>;
  /** Drops the schema and everything in it. */
  drop(): Promise<void>;
}

export async function createTestPostgresSchema(): Promise<TestPostgresSchema> {
  const url = await testPostgresServerUrl();
  const schema = `uas_test_${randomBytes(8).toString('hex')}`;
  const admin = postgres(url, { max: 1, onnotice: () => {} });
  await admin`create schema ${admin(schema)}`;
  return {
    url,
    schema,
    async truncate() {
      const tables = await admin<{ name: string }[]>`
        select tablename as name from pg_tables where schemaname = ${schema} and tablename not like '\_\_drizzle%'`;
      if (tables.length === 0) return;
      const quoted = (identifier: string) => `"${identifier.replaceAll('"', '""')}"`;
      const names = tables.map(({ name }) => `${quoted(schema)}.${quoted(name)}`);
      await admin.unsafe(`truncate ${names.join(', ')} restart identity cascade`);
    },
    async drop() {
      await admin`drop schema if exists ${admin(schema)} cascade`;
      await admin.end({ timeout: 5 });
    },
  };
}
