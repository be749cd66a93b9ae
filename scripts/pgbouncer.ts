import { type ChildProcess, spawn } from 'node:child_process';
import { chmodSync, mkdtempSync, writeFileSync } from 'node:fs';
import { createServer, connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import postgres from 'postgres';
import { onLoopbackPort } from './loopback-url';

/** Debian's package puts it here; `apt-get install pgbouncer` (scripts/test-prerequisites.sh). */
const PGBOUNCER = process.env.PGBOUNCER_BIN ?? '/usr/sbin/pgbouncer';

/** A PgBouncer of a test's or benchmark's own, on a loopback port, in front of one PostgreSQL server. */
export interface TestPgBouncer {
  readonly port: number;
  /** `url` (a PostgreSQL URL) with the host and port changed to the pooler's. */
  through(url: string): string;
  /** Stops it at once: clients lose their connections, new ones are refused. */
  down(): Promise<void>;
  /** Starts it again on the same port. */
  up(): Promise<void>;
  /** The server process ids of the connections it holds for `user` (SHOW SERVERS on its admin console). */
  serverPids(user: string): Promise<number[]>;
  stop(): Promise<void>;
}

/**
 * Runs PgBouncer (`$0 $@`) until a line or the end comes on its shell's stdin, then stops it at
 * once (SIGINT: what a pooler that crashes or restarts does to its clients) and waits for it;
 * unless the line was `down`, it also removes the pooler's folder ($PGBOUNCER_DIR). Our end of
 * the pipe closes when this process dies without stopping it, so no pooler outlives a test.
 */
const UNTIL_TOLD =
  '"$0" "$@" & p=$!; read -r told; kill -INT $p; wait $p; [ "$told" = down ] || rm -rf "$PGBOUNCER_DIR"';

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

async function listening(port: number, deadline: number): Promise<void> {
  while (Date.now() < deadline) {
    const open = await new Promise<boolean>((resolve) => {
      const socket = connect(port, '127.0.0.1');
      socket.once('connect', () => resolve(socket.destroy() !== undefined));
      socket.once('error', () => resolve(false));
    });
    if (open) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`PgBouncer did not listen on 127.0.0.1:${port} in time.`);
}

/**
 * The settings the operator's guide (docs/operations.md, "Running many instances") gives, in
 * transaction mode: startup parameters the service sends that a transaction pooler cannot keep
 * per client are accepted and ignored (the schema and statement timeout then come from the
 * role, see createTestPostgresSchema); a client waits at most 5 s for a server connection, so a
 * database that is gone turns into an error, not a hang.
 */
function config(server: URL, port: number, directory: string): string {
  return [
    '[databases]',
    `* = host=${server.hostname} port=${server.port || 5432}`,
    '[pgbouncer]',
    'listen_addr = 127.0.0.1',
    `listen_port = ${port}`,
    `unix_socket_dir = ${directory}`,
    'auth_type = trust',
    `auth_file = ${join(directory, 'users.txt')}`,
    'auth_user = postgres',
    'pool_mode = transaction',
    'default_pool_size = 20',
    'max_client_conn = 500',
    'ignore_startup_parameters = extra_float_digits, statement_timeout, search_path',
    'query_wait_timeout = 5',
    'server_connect_timeout = 3',
    'server_login_retry = 1',
    'server_reset_query =',
    'admin_users = postgres',
    '',
  ].join('\n');
}

/**
 * Starts Debian's PgBouncer in transaction mode in front of the server at `serverUrl` (trust
 * authentication on loopback). As root it runs as `postgres`, since PgBouncer refuses root.
 */
export async function startTestPgBouncer(serverUrl: string): Promise<TestPgBouncer> {
  const server = new URL(serverUrl);
  const port = await freePort();
  const directory = mkdtempSync(join(tmpdir(), 'uas-pgbouncer-'));
  chmodSync(directory, 0o777);
  const file = join(directory, 'pgbouncer.ini');
  writeFileSync(join(directory, 'users.txt'), '"postgres" ""\n');
  writeFileSync(file, config(server, port, directory));
  chmodSync(file, 0o644);
  const asRoot = process.getuid?.() === 0;
  let child: ChildProcess | undefined;

  const start = async () => {
    const started = spawn('sh', ['-c', UNTIL_TOLD, PGBOUNCER, ...(asRoot ? ['-u', 'postgres'] : []), file], {
      stdio: ['pipe', 'ignore', 'pipe'],
      env: { ...process.env, PGBOUNCER_DIR: directory },
    });
    let output = '';
    started.stderr?.on('data', (chunk: Buffer) => {
      output = (output + chunk.toString()).slice(-4000);
    });
    child = started;
    try {
      await listening(port, Date.now() + 10_000);
    } catch (error) {
      started.stdin?.end();
      throw new Error(`${(error as Error).message}\n${output}`);
    }
  };
  const halt = async (told: 'down' | 'stop') => {
    const running = child;
    child = undefined;
    if (!running || running.exitCode !== null) return;
    const exited = new Promise((resolve) => running.once('exit', resolve));
    running.stdin?.end(`${told}\n`);
    await exited;
  };

  await start();
  return {
    port,
    through: (url) => onLoopbackPort(url, port),
    down: () => halt('down'),
    up: start,
    async serverPids(user) {
      // The admin console speaks the simple query protocol only, and has no types to fetch.
      const adminConsole = postgres({
        host: '127.0.0.1',
        port,
        user: 'postgres',
        database: 'pgbouncer',
        max: 1,
        fetch_types: false,
      });
      try {
        const servers = await adminConsole.unsafe<{ user: string; remote_pid: string }[]>('SHOW SERVERS').simple();
        return servers.filter((server) => server.user === user).map((server) => Number(server.remote_pid));
      } finally {
        await adminConsole.end();
      }
    },
    stop: () => halt('stop'),
  };
}

/**
 * What an operator does for a schema behind a pooler in transaction mode (docs/operations.md,
 * "Running many instances"): a login role named after the schema, owning it, that searches it
 * first and has the service's statement timeout, since the pooler passes on neither from the
 * connection's start. `admin` is a superuser's connection to the server itself.
 */
export async function createSchemaRole(admin: postgres.Sql, schema: string): Promise<void> {
  const [{ database } = { database: '' }] = await admin<{ database: string }[]>`select current_database() as database`;
  await admin`create role ${admin(schema)} login`;
  await admin`alter schema ${admin(schema)} owner to ${admin(schema)}`;
  await admin`grant create on database ${admin(database)} to ${admin(schema)}`;
  // Tables another role made there before (a database seeded as the superuser) are its to use too.
  await admin`grant all on all tables in schema ${admin(schema)} to ${admin(schema)}`;
  await admin`grant all on all sequences in schema ${admin(schema)} to ${admin(schema)}`;
  await admin.unsafe(`alter role "${schema}" set search_path = "${schema}"`);
  // The service's default DATABASE_STATEMENT_TIMEOUT_MS.
  await admin.unsafe(`alter role "${schema}" set statement_timeout = '5s'`);
}

/** Ends the role's connections (the pooler keeps idle ones per role) and drops it; its schema is dropped before. */
export async function dropSchemaRole(admin: postgres.Sql, schema: string): Promise<void> {
  await admin`select pg_terminate_backend(pid) from pg_stat_activity where usename = ${schema}`;
  // Whatever the role still owns or was granted (its grant on the database, anything a test made
  // outside its schema), so the role has nothing left that depends on it.
  await admin`drop owned by ${admin(schema)}`;
  await admin`drop role if exists ${admin(schema)}`;
}

/** `url` with the schema's role as its user (no password: trust on loopback). */
export function asSchemaRole(url: string, schema: string): string {
  const asRole = new URL(url);
  asRole.username = schema;
  asRole.password = '';
  return asRole.toString();
}
