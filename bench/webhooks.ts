/**
 * `pnpm bench:webhooks [--postgres] [--deliveries N] [--rate R] [--duration S]`: how fast webhook
 * deliveries go out to a loopback receiver, and how long a change waits between its commit and
 * its delivery at a steady rate. Each figure is printed beside the ceiling measured in the same
 * run: the same receiver fed directly by the same sender (signing included), as many in flight as
 * the worker claims, no database. The worker is the real one (the application, in this process);
 * the changes are renames of users through the use cases, over another handle on the database.
 */
import { createServer } from 'node:http';
import { mkdtemp, rm } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { openDatabase } from '@uas/adapters-persistence';
import { HttpWebhookSender } from '../apps/server/src/adapters/http-webhook-sender';
import { JsonLogger } from '../apps/server/src/adapters/json-logger';
import { createApplication } from '../apps/server/src/application';
import { loadConfig } from '../apps/server/src/config';
import { buildContainer, useCasesOf } from '../apps/server/src/container';
import { LOCAL_POSTGRES_URL, postgresDatabase, sqliteDatabase } from './database';
import { machineLine, percentile, progress, type Rate, resultRow, until, whole } from './worker-bench';

/** What the ceiling keeps in flight: the worker's claim size. */
const IN_FLIGHT = 64;

/** A loopback receiver answering 204 at once, noting when each webhook-id (and each user version) first arrived. */
async function startReceiver() {
  const arrivals = new Map<string, number>();
  const versions = new Map<string, number>();
  let received = 0;
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk) => (body += chunk));
    req.on('end', () => {
      received++;
      const now = performance.now();
      const id = String(req.headers['webhook-id']);
      if (!arrivals.has(id)) arrivals.set(id, now);
      const user = (JSON.parse(body) as { data?: { user?: { id: string; version: number } } }).data?.user;
      if (user && !versions.has(`${user.id}:${user.version}`)) versions.set(`${user.id}:${user.version}`, now);
      res.writeHead(204).end();
    });
  });
  server.keepAliveTimeout = 60_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hooks`,
    arrivals,
    versions,
    received: () => received,
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

interface Figures extends Rate {
  count: number;
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      postgres: { type: 'boolean', default: false },
      deliveries: { type: 'string', default: '3000' },
      rate: { type: 'string', default: '200' },
      duration: { type: 'string', default: '10' },
    },
  });
  const count = whole(values.deliveries, 'deliveries', 10, 50_000);
  const rate = whole(values.rate, 'rate', 1, 2_000);
  const durationS = whole(values.duration, 'duration', 1, 30);
  const postgresUrl = process.env.BENCH_DATABASE_URL || (values.postgres ? LOCAL_POSTGRES_URL : undefined);
  const directory = await mkdtemp(join(tmpdir(), 'uas-bench-webhooks-'));
  const database = postgresUrl ? await postgresDatabase(postgresUrl) : sqliteDatabase(directory);
  const receiver = await startReceiver();
  const undo: (() => Promise<unknown>)[] = [
    () => rm(directory, { recursive: true, force: true }),
    () => database.drop(),
    () => receiver.stop(),
  ];
  const loadBefore = loadavg()[0]!;
  try {
    const env = {
      ...database.env,
      ADMIN_KEY_PATH: join(directory, 'admin.key'),
      BCRYPT_COST: '4',
      WEBHOOK_ALLOW_HTTP: 'true',
      WEBHOOK_ALLOW_PRIVATE_ADDRESSES: 'true',
    };
    const config = loadConfig(env);
    const logger = new JsonLogger('info', () => {});
    // Migrated, with its secrets, before anything changes; nothing is sent yet.
    await (await createApplication(config, logger)).close();
    const handle = await openDatabase(config.database, database.options);
    undo.push(() => handle.close());
    const useCases = useCasesOf(buildContainer(config, handle), config, logger);
    const { secret } = await useCases.webhooks.create({ url: receiver.url, events: ['*'] });
    const users = await Promise.all(
      Array.from({ length: 50 }, (_, n) =>
        useCases.users.create({ email: `bench${n}@example.com`, password: 'bench password 1' }),
      ),
    );
    let renames = 0;
    const rename = async () => {
      const n = renames++;
      const user = await useCases.users.update(users[n % users.length]!.id, { name: `Name ${n}` });
      return `${user.id}:${user.version}`;
    };

    progress(`ceiling: ${count} deliveries straight through the sender…`);
    const sender = new HttpWebhookSender({ allowHttp: true, allowPrivateAddresses: true });
    const body = JSON.stringify({ type: 'user.updated', timestamp: new Date().toISOString(), data: { sequence: 1 } });
    let next = 0;
    const ceilingStart = performance.now();
    await Promise.all(
      Array.from({ length: IN_FLIGHT }, async () => {
        while (next < count) {
          const n = next++;
          await sender.send({
            url: receiver.url,
            id: `msg_ceiling${n}`,
            timestamp: new Date(),
            body,
            secrets: [secret],
          });
        }
      }),
    );
    const ceiling: Figures = { perSecond: count / ((performance.now() - ceilingStart) / 1000), count };
    sender.close();
    receiver.arrivals.clear();
    const receivedBefore = receiver.received();

    progress(`backlog: ${count} changes, then starting the worker…`);
    const backlog: string[] = [];
    for (let n = 0; n < count; n++) backlog.push(await rename());
    const application = await createApplication(config, logger);
    undo.push(() => application.close());
    await until(() => backlog.every((change) => receiver.versions.has(change)), 'the backlog');
    const times = backlog.map((change) => receiver.versions.get(change)!).sort((a, b) => a - b);
    const drained: Figures = {
      perSecond: (times.length - 1) / ((times.at(-1)! - times[0]!) / 1000),
      count: times.length,
    };

    progress(`steady: ${rate} changes/s for ${durationS} s…`);
    const committedAt = new Map<string, number>();
    const steadyStart = performance.now();
    const pending: Promise<void>[] = [];
    for (let n = 0; n < rate * durationS; n++) {
      const due = steadyStart + (n * 1000) / rate;
      const wait = due - performance.now();
      if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
      pending.push(rename().then((change) => void committedAt.set(change, performance.now())));
    }
    await Promise.all(pending);
    await until(() => [...committedAt.keys()].every((change) => receiver.versions.has(change)), 'the steady load');
    await new Promise((resolve) => setTimeout(resolve, 1_000)); // time for a repeat to show
    const latencies = [...committedAt].map(([change, at]) => receiver.versions.get(change)! - at).sort((a, b) => a - b);
    const steady: Figures = {
      perSecond: latencies.length / ((performance.now() - steadyStart - 1_000) / 1000),
      p50: percentile(latencies, 50),
      p99: percentile(latencies, 99),
      count: latencies.length,
    };
    const duplicates = receiver.received() - receivedBefore - receiver.arrivals.size;

    const row = (name: string, f: Figures, share: boolean, note: string) =>
      resultRow(name, f, f.count, share ? ceiling : null, note);
    console.log(`### Webhook deliveries, ${database.label}, ${new Date().toISOString().slice(0, 10)}

${machineLine(loadBefore)}
worker, changes and receiver in one Node.js ${process.version} process. Duplicates (a webhook-id received twice): ${duplicates}.

| Measure | deliveries/s | of ceiling | p50 ms | p99 ms | deliveries | What it is |
| --- | ---: | ---: | ---: | ---: | ---: | --- |
${row('ceiling (the sender alone)', ceiling, false, `${IN_FLIGHT} in flight, signed, no database`)}
${row('backlog drained', drained, true, `${count} changes committed, then the worker started: first to last received`)}
${row(`steady ${rate}/s, commit → delivery`, steady, false, `${rate * durationS} renames at ${rate}/s; from the change's commit to the receiver`)}`);
  } finally {
    for (const step of undo.reverse()) await step().catch((error: Error) => progress(`clean-up: ${error.message}`));
  }
}

main().catch((error: Error) => {
  process.exitCode = 1;
  progress(`The benchmark failed: ${error.message}`);
});
