/**
 * `pnpm bench [--postgres [--pooler] [--instances N]] [--users N] [--concurrency N] [--duration S] [--only A,B] [--compare-node PATH]`:
 * seeds a fresh database with N users through the user repository's bulk path, starts the real
 * server on 127.0.0.1 against it and prints, as Markdown, requests/s and latency percentiles of
 * the main endpoints, each beside a bare Hono server's requests/s measured in the same run, and
 * the server's memory. PostgreSQL with --postgres (postgres://postgres@127.0.0.1:5432/test) or
 * BENCH_DATABASE_URL. With --compare-node, the same scenarios then run on the release installed
 * for that other Node.js binary, against the same database, with its own ceiling on that Node.js,
 * and a table sets the two side by side. With --pooler (PostgreSQL), the same scenarios run on four
 * servers at once: direct with prepared statements (the default), direct without, and through a
 * PgBouncer in transaction mode (scripts/pgbouncer.ts) without, and with pooled ones
 * (DATABASE_PREPARED_STATEMENTS=pooled), each beside its same-run ceiling.
 * With --only, just the scenarios whose names contain one of the comma-separated words
 * (`--only recover,signup`). With --instances N (PostgreSQL), N servers run on the database and
 * the load goes to each in turn, as a load balancer would spread it.
 */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { hash } from '@node-rs/bcrypt';
import { expectJson, logIn, PASSWORD } from './api';
import { startCeiling } from './ceiling';
import { type BenchDatabase, LOCAL_POSTGRES_URL, postgresDatabase, sqliteDatabase } from './database';
import { startTestPgBouncer } from '../scripts/pgbouncer';
import { HttpClient, measure, startMeasurement, type Figures, type Load } from './load';
import { type CpuSplit, countCpu } from './process-cpu';
import { currentRuntime, runtimeFor, type NodeRuntime } from './node-runtime';
import { poolerTargetsSection } from './pooler-targets';
import { againstFirstTable, comparisonTable, figuresTable, memoryTable, type Row } from './report';
import type { Scenario } from './scenario';
import { CLIENT_ADDRESS_ENV, scenarios } from './scenarios';
import type { ServerData } from './second-factor-seed';
import { seedUsers } from './seed';
import { bcryptCeiling, targetsSection } from './targets';
import { scaleTargetsSection } from './scale-targets';
import { VARIABLES } from '../apps/server/src/config-variables';
import { ServerProcesses } from '../scripts/release-process';

/** Longest measurement of one scenario: the machine is shared, runs must stay short. */
const MAX_DURATION_S = 20;
const WARM_UP_MS = 1_000;
/** With several servers, how long each is measured before the next one's turn (see measureScenario). */
const SLICE_MS = 1_000;
const MAX_USERS = 1_000_000;
const MAX_INSTANCES = 4;

interface Options {
  users: number;
  load: Load;
  /** PostgreSQL's URL; none means SQLite. */
  postgresUrl: string | undefined;
  /** Another Node.js binary to run the same scenarios on, after the current one. */
  compareNode: string | undefined;
  /** PostgreSQL: also measure without prepared statements, directly and through PgBouncer, and through it with pooled ones. */
  pooler: boolean;
  /** Words one of which a scenario's name must contain to run; none: every scenario runs. */
  only: string[];
  /** Servers on the same database the load is spread over, in turn (PostgreSQL for more than one). */
  instances: number;
}

function readOptions(): Options {
  const { values } = parseArgs({
    options: {
      postgres: { type: 'boolean', default: false },
      users: { type: 'string', default: '10000' },
      concurrency: { type: 'string', default: '16' },
      duration: { type: 'string', default: '10' },
      'compare-node': { type: 'string' },
      pooler: { type: 'boolean', default: false },
      only: { type: 'string' },
      instances: { type: 'string', default: '1' },
    },
  });
  if (values.pooler && !(values.postgres || process.env.BENCH_DATABASE_URL))
    throw new Error('--pooler measures PostgreSQL: add --postgres (or set BENCH_DATABASE_URL)');
  if (values.pooler && values['compare-node']) throw new Error('--pooler and --compare-node do not go together');
  if (values.instances !== '1' && !(values.postgres || process.env.BENCH_DATABASE_URL))
    throw new Error(
      '--instances above 1 shares one database between servers: add --postgres (or set BENCH_DATABASE_URL)',
    );
  const wholeNumber = (name: 'users' | 'concurrency' | 'duration' | 'instances', min: number, max: number): number => {
    const value = Number(values[name]);
    if (!Number.isInteger(value) || value < min || value > max)
      throw new Error(`--${name} must be a whole number from ${min} to ${max}`);
    return value;
  };
  return {
    users: wholeNumber('users', 20, MAX_USERS),
    load: {
      concurrency: wholeNumber('concurrency', 1, 256),
      durationMs: wholeNumber('duration', 1, MAX_DURATION_S) * 1000,
      warmUpMs: WARM_UP_MS,
    },
    postgresUrl: process.env.BENCH_DATABASE_URL || (values.postgres ? LOCAL_POSTGRES_URL : undefined),
    compareNode: values['compare-node'],
    pooler: values.pooler ?? false,
    only: values.only ? values.only.split(',').filter(Boolean) : [],
    instances: wholeNumber('instances', 1, MAX_INSTANCES),
  };
}

/** The measured servers (one set per Node.js), killed on any way out of the benchmark. */
const serverSets: ServerProcesses[] = [];
const killAll = () => {
  for (const servers of serverSets) servers.killNow();
};

/** What to undo, last first, however the run ends: servers are killed before any of it. */
const undo: (() => Promise<void>)[] = [];
async function cleanUp(): Promise<void> {
  killAll();
  for (const step of undo.splice(0).reverse())
    await step().catch((error: Error) => progress(`clean-up: ${error.message}`));
}
process.once('exit', killAll);
// `on`, not `once`: tsx's runner may pass on the same Ctrl-C a second time, and a signal nobody
// listens to ends the process at once, before the clean-up has finished.
let interrupted = false;
for (const [signal, code] of [
  ['SIGINT', 130],
  ['SIGTERM', 143],
] as const) {
  process.on(signal, () => {
    if (interrupted) return;
    interrupted = true;
    void cleanUp().finally(() => process.exit(code));
  });
}

const progress = (line: string) => process.stderr.write(`${line}\n`);

type Admin = { email: string; password: string };
const adminToken = async (client: HttpClient, admin: Admin) =>
  (await logIn(client, admin.email, admin.password, '/v1/admin/login')).accessToken;

/**
 * The ceiling: a bare Hono server answering the measured server's first page of users from
 * memory, loaded as the scenarios are. Every figure is printed as a share of it.
 */
async function measureCeiling(load: Load, directory: string, firstPage: string, node: string): Promise<Figures> {
  const bodyPath = join(directory, 'ceiling-body.json');
  await writeFile(bodyPath, firstPage);
  const ceiling = await startCeiling(bodyPath, node);
  const client = new HttpClient(ceiling.url, load.concurrency);
  try {
    progress(`ceiling (bare Hono, same body, same Node.js): ${load.durationMs / 1000} s…`);
    return await measure(load, 200, async () => async () => (await client.send('GET', '/v1/admin/users')).status);
  } finally {
    client.close();
    ceiling.stop();
  }
}

/**
 * A scenario, and its probes from one client each at the same time, on each server in turn (the
 * same scenario of each): a warm-up each, then, with several servers, slices of SLICE_MS on each
 * in turn until each has had `load.durationMs`, so that what else the machine does meanwhile
 * falls on every server alike rather than on whichever ran at a worse moment. A scenario whose
 * answers are made ahead runs on each server in one go instead (Scenario.madeAhead). With
 * several servers, each one's main row also gets the CPU time a request cost (countCpu).
 */
async function measureScenario(load: Load, servers: { scenario: Scenario; pids: number[] }[]): Promise<Row[][]> {
  const probeNote = `one client, while ${load.concurrency} send \`${servers[0]!.scenario.name}\``;
  const start = async ({ scenario, pids }: (typeof servers)[number]) => ({
    pids,
    cpu: { server: 0, postgres: 0, pgbouncer: 0 },
    traffic: await Promise.all(
      [scenario, ...(scenario.probes ?? [])].map(async (traffic) => {
        const probe = traffic !== scenario;
        const row = { name: traffic.name, note: probe ? probeNote : scenario.note, expected: traffic.expected, probe };
        try {
          const concurrency = probe ? 1 : load.concurrency;
          return { row, measurement: await startMeasurement(concurrency, traffic.expected, traffic.prepare) };
        } catch (error) {
          // A scenario that cannot run is reported in its row; the others still are measured.
          return { row: { ...row, failure: (error as Error).message } };
        }
      }),
    ),
  });
  type Started = Awaited<ReturnType<typeof start>>;
  // Only several servers' rows show CPU: one server's slices skip reading /proc twice.
  const counted = servers.length > 1;
  const slice = async ({ traffic, pids, cpu }: Started, ms: number, record: boolean) => {
    const used = record && counted ? await countCpu(pids) : undefined;
    await Promise.all(traffic.map(({ measurement }) => measurement?.run(ms, record)));
    if (!used) return;
    for (const [key, value] of Object.entries(await used())) cpu[key as keyof CpuSplit] += value;
  };
  const started: Started[] = [];
  if (servers.length === 1 || servers[0]!.scenario.madeAhead)
    for (const server of servers) {
      const one = await start(server);
      started.push(one);
      await slice(one, load.warmUpMs, false);
      await slice(one, load.durationMs, true);
    }
  else {
    started.push(...(await Promise.all(servers.map(start))));
    for (const server of started) await slice(server, load.warmUpMs, false);
    for (let done = 0; done < load.durationMs; done += SLICE_MS)
      for (const server of started) await slice(server, Math.min(SLICE_MS, load.durationMs - done), true);
  }
  return started.map(({ traffic, cpu }) => {
    const figures = traffic.map(({ measurement }) => measurement?.figures());
    const requests = figures.reduce((sum, each) => sum + (each?.requests ?? 0), 0);
    const perRequest = {
      server: cpu.server / requests,
      postgres: cpu.postgres / requests,
      pgbouncer: cpu.pgbouncer / requests,
    };
    return traffic.map(({ row }, index): Row => {
      const measured = figures[index];
      if (!measured) return row as Row;
      return { ...row, figures: row.probe || !counted ? measured : { ...measured, cpu: perRequest } };
    });
  });
}

/** A started server of one runtime, with its clients and its scenarios. */
async function startTarget(
  { load, users: count, only, instances }: Options,
  env: Record<string, string>,
  directory: string,
  users: { id: string; email: string }[],
  runtime: NodeRuntime,
  tag: string,
  data: ServerData,
) {
  const servers = new ServerProcesses(runtime);
  serverSets.push(servers);
  // Measured with the defaults production runs with, not the cheap bcrypt of the tests.
  const defaults = { BCRYPT_COST: VARIABLES.BCRYPT_COST.default };
  const logFiles = Array.from({ length: instances }, (_, n) => join(directory, `server-${tag}${n || ''}.log`));
  // One after the other: the first migrates and writes the admin's key, the others find both.
  const started: Awaited<ReturnType<ServerProcesses['start']>>[] = [];
  for (const logFile of logFiles)
    started.push(await servers.start({ ...defaults, ...env }, { cwd: directory, logFile }));
  const server = started[0]!;
  const admin = JSON.parse(await readFile(env.ADMIN_KEY_PATH!, 'utf8')) as Admin;
  const atStart = await server.memory();
  const urls = started.map(({ url }) => url);
  const client = new HttpClient(urls, load.concurrency);
  const probeClient = new HttpClient(urls, 2);
  const token = await adminToken(client, admin);
  const firstPage = await client.send('GET', '/v1/admin/users', { token });
  expectJson(firstPage, 200, 'GET /v1/admin/users');
  return {
    runtime,
    atStart,
    pids: started.map(({ pid }) => pid),
    firstPage: firstPage.body,
    scenarios: scenarios({
      client,
      probeClient,
      adminToken: token,
      count,
      users,
      tag,
      load,
      server: data,
      webauthnOrigin: `http://localhost:${new URL(server.url).port}`,
    }).filter((scenario) => only.length === 0 || only.some((word) => scenario.name.includes(word))),
    /** Its memory after the load, and the log lines at level error (5xx answers and their causes). */
    async finish() {
      const afterLoad = await server.memory();
      client.close();
      probeClient.close();
      for (const each of started) await each.stop();
      const logs = await Promise.all(logFiles.map((file) => readFile(file, 'utf8')));
      return {
        afterLoad,
        errors: logs
          .join('\n')
          .split('\n')
          .filter((line) => line.includes('"level":"error"')),
      };
    },
  };
}

/**
 * Every scenario against a server with the default configuration per runtime, and its memory
 * before and after. With several servers (runtimes, or --pooler's set-ups) all run at once and
 * each measurement alternates between them: the ceilings one after the other, then every
 * scenario in slices on each in turn (measureScenario).
 */
async function measureAll(
  options: Options,
  directory: string,
  users: { id: string; email: string }[],
  variants: Variant[],
  data: ServerData,
) {
  const targets = [];
  for (const [index, { runtime, env }] of variants.entries())
    targets.push(await startTarget(options, env, directory, users, runtime, String.fromCharCode(97 + index), data));
  const ceilings: Figures[] = [];
  for (const [which, target] of targets.entries()) {
    progress(`${variants[which]!.label}:`);
    ceilings.push(await measureCeiling(options.load, directory, target.firstPage, target.runtime.node));
  }
  const rows: Row[][] = targets.map(() => []);
  for (const [index, scenario] of targets[0]!.scenarios.entries()) {
    progress(
      `${scenario.name}: ${options.load.durationMs / 1000} s${targets.length > 1 ? ` on each of ${targets.length} servers, in turn` : ''}…`,
    );
    const measured = await measureScenario(
      options.load,
      targets.map((target) => ({ scenario: target.scenarios[index]!, pids: target.pids })),
    );
    for (const [which, each] of measured.entries()) rows[which]!.push(...each);
  }
  const runs = [];
  for (const [which, target] of targets.entries())
    runs.push({
      ...variants[which]!,
      measured: { ceiling: ceilings[which]!, rows: rows[which]!, atStart: target.atStart, ...(await target.finish()) },
    });
  return runs;
}

/** One server set-up the scenarios run on: its runtime and its environment. */
interface Variant {
  label: string;
  runtime: NodeRuntime;
  env: Record<string, string>;
}

/**
 * What the scenarios run on: the current Node.js; with --compare-node, that one too; with
 * --pooler, the current Node.js without prepared statements, directly and through a PgBouncer in
 * transaction mode started for the run (with the schema's role, as the operator's guide says), and
 * through it with pooled ones, as the guide sets it.
 */
async function variantsOf(options: Options, env: Record<string, string>, directory: string, database: BenchDatabase) {
  const current = currentRuntime();
  if (options.compareNode) {
    progress(`installing the release's native packages for ${options.compareNode}…`);
    const other = await runtimeFor(options.compareNode, directory);
    return [current, other].map((runtime) => ({ label: `Node.js ${runtime.version}`, runtime, env }));
  }
  if (!options.pooler) return [{ label: `Node.js ${current.version}`, runtime: current, env }];
  const pooler = await startTestPgBouncer(options.postgresUrl!);
  undo.push(() => pooler.stop());
  const unprepared = { ...env, DATABASE_PREPARED_STATEMENTS: 'false' };
  const pooled = { ...env, DATABASE_PREPARED_STATEMENTS: 'pooled' };
  const throughPooler = await database.throughPooler(pooler);
  return [
    { label: 'direct', runtime: current, env },
    { label: 'direct, unprepared', runtime: current, env: unprepared },
    { label: 'PgBouncer, unprepared', runtime: current, env: { ...unprepared, ...throughPooler } },
    { label: 'PgBouncer, pooled', runtime: current, env: { ...pooled, ...throughPooler } },
  ];
}

/** The measured server's first error log lines, if it logged any. */
const serverErrors = (lines: string[]) =>
  lines.length === 0
    ? ''
    : `\n\nThe server logged ${lines.length} errors; the first:\n\n\`\`\`\n${lines.slice(0, 5).join('\n')}\n\`\`\``;

async function main(): Promise<void> {
  const options = readOptions();
  const { load } = options;
  const directory = await mkdtemp(join(tmpdir(), 'uas-bench-'));
  undo.push(() => rm(directory, { recursive: true, force: true }));
  const database = options.postgresUrl ? await postgresDatabase(options.postgresUrl) : sqliteDatabase(directory);
  undo.push(() => database.drop());
  const env = {
    ...database.env,
    ...CLIENT_ADDRESS_ENV,
    ADMIN_KEY_PATH: join(directory, 'admin.key'),
    LOG_LEVEL: 'info',
  };
  const loadBefore = loadavg()[0]!;

  progress(`${database.label}: seeding ${options.users} users through UserRepository.insertMany…`);
  const started = performance.now();
  const users = await seedUsers(database.location, database.options, options.users);
  const seedSeconds = (performance.now() - started) / 1000;
  progress(`seeded in ${seedSeconds.toFixed(1)} s`);
  await database.analyze();
  const cpu = cpus();
  const cost = Number(VARIABLES.BCRYPT_COST.default);
  // Before and after the load, as the machine's other work may change in between: their mean.
  const hashOnce = () => hash(PASSWORD, { cost });
  const before = await bcryptCeiling(hashOnce, cpu.length);
  const data = { location: database.location, options: database.options, adminKeyPath: env.ADMIN_KEY_PATH };
  const runs = await measureAll(options, directory, users, await variantsOf(options, env, directory, database), data);
  const after = await bcryptCeiling(hashOnce, cpu.length);
  const bcrypt = { perSecond: (before.perSecond + after.perSecond) / 2, ms: (before.ms + after.ms) / 2 };
  const sections = runs.map(
    ({
      label,
      runtime,
      measured,
    }) => `${runs.length > 1 ? `#### ${label}\n\n` : ''}**Ceiling**: a bare Hono server on Node.js ${runtime.version} answering the first page's body from memory,
${measured.ceiling.perSecond.toFixed(0)} req/s (p99 ${measured.ceiling.p99.toFixed(1)} ms) in this run; "of ceiling" is each figure's share of it.

${figuresTable(measured.rows, measured.ceiling)}${targetsSection(measured.rows, bcrypt, cpu.length)}${scaleTargetsSection(measured.rows, measured.ceiling, options.postgresUrl ? 'postgres' : 'sqlite', options.users)}

${memoryTable([
  ['measured server, at start', measured.atStart],
  ['measured server, after the load', measured.afterLoad],
])}${serverErrors(measured.errors)}`,
  );
  const [first, second] = runs;
  const compared = runs.map(({ label, measured }) => ({ label, ...measured }));
  const comparison = options.pooler
    ? `\n\n#### Side by side\n\n${againstFirstTable(compared)}${poolerTargetsSection(compared)}`
    : first && second
      ? `\n\n#### Side by side\n\n${comparisonTable([
          { label: first.label, ...first.measured },
          { label: second.label, ...second.measured },
        ])}`
      : '';
  console.log(`### ${database.label}, ${options.users.toLocaleString('en')} users, ${new Date().toISOString().slice(0, 10)}

Machine: ${cpu.length} cores (${cpu[0]?.model.trim()}), **shared with other work** (load average ${loadBefore.toFixed(1)} before the run, ${loadavg()[0]!.toFixed(1)} after);
the load generator runs on the same cores (Node.js ${process.version}). Figures are indicative, not a capacity promise.
${database.notes}
${options.users} users seeded through \`UserRepository.insertMany\` (batches of 10,000, one bcrypt hash of cost 10 shared) in ${seedSeconds.toFixed(1)} s.
The measured server runs with its defaults (BCRYPT_COST=10, LOG_LEVEL=info, request logs to a file) but for TRUSTED_PROXIES=127.0.0.1, MAIL_HOURLY_LIMIT=100000000 and PASSKEY_OPTIONS_PER_MINUTE=1000000 (see \`CLIENT_ADDRESS_ENV\`). ${load.concurrency} concurrent keep-alive clients,
${load.durationMs / 1000} s per request type after a ${WARM_UP_MS / 1000} s warm-up.${options.instances > 1 ? ` The load is spread over ${options.instances} servers on the same database, in turn, as a load balancer would; the memory is the first one's.` : ''}${runs.length > 1 ? ` ${runs.length} servers (${runs.map(({ label }) => label).join('; ')}) run at once on the same database; each scenario is measured on them in turn, ${SLICE_MS / 1000} s at a time (one whose answers are made ahead, on each in one go).` : ''}

${sections.join('\n\n')}${comparison}`);
}

main()
  .catch((error: Error) => {
    process.exitCode = 1;
    if (!interrupted) progress(`The benchmark failed: ${error.message}`);
  })
  .finally(cleanUp);
