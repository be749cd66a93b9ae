/**
 * `pnpm bench [--postgres] [--users N] [--concurrency N] [--duration S]`: starts the real server
 * on 127.0.0.1 against a fresh database, seeds users through the admin API and prints, as
 * Markdown, requests/s and latency percentiles of the main endpoints and the server's memory.
 * PostgreSQL with --postgres (postgres://postgres@127.0.0.1:5432/test) or BENCH_DATABASE_URL.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { logIn, seedUsers, type SeededUser } from './api';
import { LOCAL_POSTGRES_URL, postgresDatabase, sqliteDatabase } from './database';
import { HttpClient, measure, type Load } from './load';
import { figuresTable, memoryTable, type Row } from './report';
import { scenarios } from './scenarios';
import { BenchServer, killAll } from './server-process';

/** Longest measurement of one scenario: the machine is shared, runs must stay short. */
const MAX_DURATION_S = 20;
const WARM_UP_MS = 1_000;

interface Options {
  users: number;
  load: Load;
  /** PostgreSQL's URL; none means SQLite. */
  postgresUrl: string | undefined;
}

function readOptions(): Options {
  const { values } = parseArgs({
    options: {
      postgres: { type: 'boolean', default: false },
      users: { type: 'string', default: '10000' },
      concurrency: { type: 'string', default: '16' },
      duration: { type: 'string', default: '10' },
    },
  });
  const wholeNumber = (name: 'users' | 'concurrency' | 'duration', min: number, max: number): number => {
    const value = Number(values[name]);
    if (!Number.isInteger(value) || value < min || value > max) throw new Error(`--${name} must be a whole number from ${min} to ${max}`);
    return value;
  };
  return {
    users: wholeNumber('users', 1, 100_000),
    load: { concurrency: wholeNumber('concurrency', 1, 256), durationMs: wholeNumber('duration', 1, MAX_DURATION_S) * 1000, warmUpMs: WARM_UP_MS },
    postgresUrl: process.env.BENCH_DATABASE_URL || (values.postgres ? LOCAL_POSTGRES_URL : undefined),
  };
}

/** What to undo, last first, however the run ends: servers are killed before any of it. */
const undo: (() => Promise<void>)[] = [];
async function cleanUp(): Promise<void> {
  killAll();
  for (const step of undo.splice(0).reverse()) await step().catch((error: Error) => progress(`clean-up: ${error.message}`));
}
process.once('exit', killAll);
// `on`, not `once`: tsx's runner may pass on the same Ctrl-C a second time, and a signal nobody
// listens to ends the process at once, before the clean-up has finished.
let interrupted = false;
for (const [signal, code] of [['SIGINT', 130], ['SIGTERM', 143]] as const) {
  process.on(signal, () => {
    if (interrupted) return;
    interrupted = true;
    void cleanUp().finally(() => process.exit(code));
  });
}

const progress = (line: string) => process.stderr.write(`${line}\n`);

type Admin = { email: string; password: string };
const adminToken = async (client: HttpClient, admin: Admin) => (await logIn(client, admin.email, admin.password, '/v1/admin/login')).accessToken;

/**
 * Seeding 10,000 users at cost 10 would take minutes of bcrypt on 2 cores: a first server seeds
 * at cost 4, and is stopped; the measured one, on the same database, has the default cost.
 */
async function seed({ users: count, load }: Options, env: Record<string, string>, directory: string) {
  const server = await BenchServer.start({ ...env, BCRYPT_COST: '4' }, directory);
  const admin = JSON.parse(await readFile(env.ADMIN_KEY_PATH!, 'utf8')) as Admin;
  const client = new HttpClient(server.url, load.concurrency);
  const started = performance.now();
  const users = await seedUsers(client, await adminToken(client, admin), count, load.concurrency);
  const seconds = (performance.now() - started) / 1000;
  const memory = await server.memory();
  client.close();
  await server.stop();
  return { admin, users, seconds, memory };
}

/** Every scenario against a server with the default configuration, and its memory before and after. */
async function measureAll({ load }: Options, env: Record<string, string>, directory: string, admin: Admin, users: SeededUser[]) {
  const server = await BenchServer.start(env, directory);
  const atStart = await server.memory();
  const client = new HttpClient(server.url, load.concurrency);
  const rows: Row[] = [];
  for (const scenario of scenarios({ client, adminToken: await adminToken(client, admin), users })) {
    progress(`${scenario.name}: ${load.durationMs / 1000} s…`);
    // A scenario that cannot run is reported in its row; the others still are measured.
    rows.push(await measure(load, scenario.expected, scenario.prepare).then(
      (figures) => ({ scenario, figures }),
      (error: Error) => ({ scenario, failure: error.message }),
    ));
  }
  const afterLoad = await server.memory();
  client.close();
  await server.stop();
  return { rows, atStart, afterLoad, errors: await server.errorLines() };
}

/** The measured server's first error log lines, if it logged any. */
const serverErrors = (lines: string[]) =>
  lines.length === 0 ? '' : `\n\nThe server logged ${lines.length} errors; the first:\n\n\`\`\`\n${lines.slice(0, 5).join('\n')}\n\`\`\``;

async function main(): Promise<void> {
  const options = readOptions();
  const { load } = options;
  const directory = await mkdtemp(join(tmpdir(), 'uas-bench-'));
  undo.push(() => rm(directory, { recursive: true, force: true }));
  const database = options.postgresUrl ? await postgresDatabase(options.postgresUrl) : sqliteDatabase(directory);
  undo.push(() => database.drop());
  const env = { ...database.env, ADMIN_KEY_PATH: join(directory, 'admin.key'), LOG_LEVEL: 'info' };
  const loadBefore = loadavg()[0]!;

  progress(`${database.label}: seeding ${options.users} users through POST /v1/admin/users (BCRYPT_COST=4)…`);
  const seeded = await seed(options, env, directory);
  await database.analyze();
  const measured = await measureAll(options, env, directory, seeded.admin, seeded.users);

  const cpu = cpus();
  console.log(`### ${database.label}, ${new Date().toISOString().slice(0, 10)}

Machine: ${cpu.length} cores (${cpu[0]?.model.trim()}), **shared with other work** (load average ${loadBefore.toFixed(1)} before the run, ${loadavg()[0]!.toFixed(1)} after);
the load generator runs on the same cores. Node ${process.version}. Figures are indicative, not a capacity promise.
${database.notes}
${options.users} users seeded through the admin API in ${seeded.seconds.toFixed(1)} s with BCRYPT_COST=4 (seeding only); the measured server runs with
the default BCRYPT_COST=10 and LOG_LEVEL=info (request logs to a file). ${load.concurrency} concurrent keep-alive clients,
${load.durationMs / 1000} s per request type after a ${WARM_UP_MS / 1000} s warm-up.

${figuresTable(measured.rows)}

${memoryTable([
  [`seeding server, after ${options.users} creates`, seeded.memory],
  ['measured server, at start', measured.atStart],
  ['measured server, after the load', measured.afterLoad],
])}${serverErrors(measured.errors)}`);
}

main()
  .catch((error: Error) => {
    process.exitCode = 1;
    if (!interrupted) progress(`The benchmark failed: ${error.message}`);
  })
  .finally(cleanUp);
