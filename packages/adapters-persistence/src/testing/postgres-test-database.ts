import { randomBytes } from 'node:crypto';
import postgres from 'postgres';
import {
  asSchemaRole,
  createSchemaRole,
  dropSchemaRole,
  startTestPgBouncer,
  type TestPgBouncer,
} from '../../../../scripts/pgbouncer';
import type { PreparedStatements } from '../shared/database-handle';

/** Where tests find PostgreSQL when neither TEST_DATABASE_URL nor a Docker engine is there. */
const LOCAL_TEST_DATABASE_URL = 'postgres://postgres@127.0.0.1:5432/test';

let server: Promise<string> | undefined;

/**
 * The PostgreSQL server for this test process: TEST_DATABASE_URL when set; else a throw-away
 * container when a Docker engine answers; else the local default. Rejects with a message saying
 * what was tried when the server does not answer: a test run must fail, never skip.
 */
export function testPostgresServerUrl(): Promise<string> {
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

/**
 * With TEST_DATABASE_POOLER=pgbouncer, the suites reach the server through a PgBouncer in
 * transaction mode that this test process starts (and stops when it exits), as the operator's
 * guide runs many instances: prepared statements pooled, the schema and statement timeout set on
 * a role of the schema's own, since the pooler drops what a connection sends at its start.
 */
const THROUGH_POOLER = process.env.TEST_DATABASE_POOLER === 'pgbouncer';

let pooler: Promise<TestPgBouncer> | undefined;

function testPooler(serverUrl: string): Promise<TestPgBouncer> {
  return (pooler ??= startTestPgBouncer(serverUrl).then((started) => {
    process.once('exit', () => void started.stop());
    return started;
  }));
}

/** A schema of its own on the test server: what `openDatabase(…, { schema })` isolates a test run in. */
export interface TestPostgresSchema {
  /** The URL the service connects to: the server's, or the pooler's with the schema's role. */
  readonly url: string;
  readonly schema: string;
  /** The server's own URL (its superuser), for what looks at one direct connection: plans, settings sent at connect. */
  readonly serverUrl: string;
  /** The database options the service is given for this schema (`openDatabase(url, options)`). */
  readonly options: { schema: string; preparedStatements: PreparedStatements };
  /** The same as the service's environment variables. */
  readonly env: { DATABASE_URL: string; DATABASE_SCHEMA: string; DATABASE_PREPARED_STATEMENTS: string };
  /** Empties every table of the schema (but the migrations' bookkeeping). */
  truncate(): Promise<void>;
  /** Ends every server connection of the schema's role (ownRole, or through a pooler): a database failing over. */
  endConnections(): Promise<number>;
  /** Drops the schema and everything in it. */
  drop(): Promise<void>;
}

export interface TestSchemaOptions {
  /** Reach the server through this pooler (as a role of the schema's own), whatever TEST_DATABASE_POOLER says. */
  pooler?: TestPgBouncer;
  /** Connect as a role of the schema's own, whose connections a test can tell from others and end. */
  ownRole?: boolean;
}

/** PostgreSQL's SQLSTATE for a transaction it ended to break a deadlock. */
const DEADLOCK_DETECTED = '40P01';

export async function createTestPostgresSchema(given: TestSchemaOptions = {}): Promise<TestPostgresSchema> {
  const serverUrl = await testPostgresServerUrl();
  const schema = `uas_test_${randomBytes(8).toString('hex')}`;
  const admin = postgres(serverUrl, { max: 1, onnotice: () => {} });
  await admin`create schema ${admin(schema)}`;
  const pooler = given.pooler ?? (THROUGH_POOLER ? await testPooler(serverUrl) : undefined);
  const ownRole = given.ownRole === true || pooler !== undefined;
  let url = serverUrl;
  if (ownRole) {
    await createSchemaRole(admin, schema);
    url = asSchemaRole(pooler ? pooler.through(serverUrl) : serverUrl, schema);
  }
  const preparedStatements: PreparedStatements = pooler === undefined ? true : 'pooled';
  return {
    url,
    schema,
    serverUrl,
    options: { schema, preparedStatements },
    env: { DATABASE_URL: url, DATABASE_SCHEMA: schema, DATABASE_PREPARED_STATEMENTS: String(preparedStatements) },
    async truncate() {
      const tables = await admin<{ name: string }[]>`
        select tablename as name from pg_tables where schemaname = ${schema} and tablename not like '\_\_drizzle%'`;
      if (tables.length === 0) return;
      const quoted = (identifier: string) => `"${identifier.replaceAll('"', '""')}"`;
      const names = tables.map(({ name }) => `${quoted(schema)}.${quoted(name)}`);
      // The audit sequencer's tick may be chaining the last test's events, locking the chain's
      // tables in another order: PostgreSQL then ends one of the two, and the truncate tries again.
      for (let attempt = 1; ; attempt += 1) {
        try {
          await admin.unsafe(`truncate ${names.join(', ')} restart identity cascade`);
          return;
        } catch (error) {
          if ((error as { code?: string }).code !== DEADLOCK_DETECTED || attempt === 3) throw error;
        }
      }
    },
    async endConnections() {
      if (!ownRole) throw new Error('Only the connections of a schema with a role of its own can be told apart.');
      // In the select list, so that only the rows the filter kept are ended: other tests share the server.
      const ended = await admin<{ pid: number; ended: boolean }[]>`
        select pid, pg_terminate_backend(pid) as ended from pg_stat_activity where usename = ${schema}`;
      const pids = new Set(ended.filter((row) => row.ended).map((row) => row.pid));
      // A pooler learns of an ended server connection when its socket closes: until then it could
      // hand it to the next client, who would meet 'server conn crashed?' instead of what the test
      // is about. Wait until it has let the ended ones go (under load it opens new ones meanwhile).
      const held = async () => (await pooler!.serverPids(schema)).some((pid) => pids.has(pid));
      for (const deadline = Date.now() + 5000; pooler && (await held()); ) {
        if (Date.now() > deadline) throw new Error('The pooler still holds connections that were ended.');
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      return pids.size;
    },
    async drop() {
      await admin`drop schema if exists ${admin(schema)} cascade`;
      if (ownRole) await dropSchemaRole(admin, schema);
      await admin.end({ timeout: 5 });
    },
  };
}
