/**
 * `pnpm bench:mail [--postgres] [--messages N] [--rate R] [--duration S]`: how fast the outbox
 * empties into a loopback SMTP server (smtp-server, accepting everything), and how long a message
 * waits between being queued and being accepted there at a steady rate. Each figure is printed
 * beside the ceiling measured in the same run: the same smtp-server fed directly by nodemailer,
 * with the mailer's own connection settings and as many messages in flight as the sender has,
 * no queue. The sender is the real one (the application with SMTP_URL set), in this process;
 * the messages are queued as `uas mail test` queues them, bodies sealed, through another handle
 * on the same database.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import nodemailer from 'nodemailer';
import { SMTPServer } from 'smtp-server';
import { openDatabase } from '@uas/adapters-persistence';
import { JsonLogger } from '../apps/server/src/adapters/json-logger';
import { SMTP_CONNECTIONS } from '../apps/server/src/adapters/smtp-mailer';
import { createApplication } from '../apps/server/src/application';
import { loadConfig } from '../apps/server/src/config';
import { buildContainer, mailOf } from '../apps/server/src/container';
import { SEND_CONCURRENCY } from '../apps/server/src/mail-sender';
import { LOCAL_POSTGRES_URL, postgresDatabase, sqliteDatabase } from './database';
import { machineLine, percentile, progress, type Rate, resultRow, until, whole } from './worker-bench';

const FROM = 'Accounts <no-reply@accounts.example.com>';

/** A loopback SMTP server that accepts every message and notes when each message id arrived. */
async function startSink() {
  const arrivals = new Map<string, number>();
  let received = 0;
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    // Its reverse lookup of 127.0.0.1 would be most of what a message costs here.
    disableReverseLookup: true,
    logger: false,
    onData(stream, _session, callback) {
      let head = '';
      stream.on('data', (chunk: Buffer) => {
        if (head.length < 8192) head += chunk.toString('latin1');
      });
      stream.on('end', () => {
        received++;
        const id = /^Message-ID:\s*<([^@>]+)@/im.exec(head)?.[1];
        if (id && !arrivals.has(id)) arrivals.set(id, performance.now());
        callback();
      });
    },
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.server.address() as AddressInfo;
  return {
    url: `smtp://127.0.0.1:${port}`,
    port,
    arrivals,
    /** Messages accepted, a repeat of one counted again: more than `arrivals.size` means a duplicate. */
    received: () => received,
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

interface Figures extends Rate {
  messages: number;
  duplicates: number;
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      postgres: { type: 'boolean', default: false },
      messages: { type: 'string', default: '2000' },
      rate: { type: 'string', default: '50' },
      duration: { type: 'string', default: '10' },
    },
  });
  const messages = whole(values.messages, 'messages', 10, 20_000);
  const rate = whole(values.rate, 'rate', 1, 1_000);
  const durationS = whole(values.duration, 'duration', 1, 20);
  const postgresUrl = process.env.BENCH_DATABASE_URL || (values.postgres ? LOCAL_POSTGRES_URL : undefined);
  const directory = await mkdtemp(join(tmpdir(), 'uas-bench-mail-'));
  const database = postgresUrl ? await postgresDatabase(postgresUrl) : sqliteDatabase(directory);
  const sink = await startSink();
  const undo: (() => Promise<unknown>)[] = [
    () => rm(directory, { recursive: true, force: true }),
    () => database.drop(),
    () => sink.stop(),
  ];
  const loadBefore = loadavg()[0]!;
  try {
    const env = { ...database.env, ADMIN_KEY_PATH: join(directory, 'admin.key'), BCRYPT_COST: '4' };
    const config = loadConfig({ ...env, SMTP_URL: sink.url, MAIL_FROM: FROM });
    // Production logs a line per delivery: formatted as there, written nowhere.
    const logger = new JsonLogger('info', () => {});
    // Migrated, with its secrets, before any message is queued; nothing is sent yet.
    await (await createApplication(loadConfig(env), logger)).close();
    const handle = await openDatabase(config.database, database.options);
    undo.push(() => handle.close());
    const { service } = mailOf(buildContainer(config, handle), config, logger);
    const queue = async (n: number) => (await service.sendTest(`person${n}@example.com`)).id;

    // The ceiling: nodemailer alone, the same message, as many in flight as the sender has.
    const sampleId = await queue(0);
    const { text, html } = (await service.read(sampleId)).content!;
    progress(`ceiling: ${messages} messages straight through nodemailer…`);
    const transport = nodemailer.createTransport(
      { host: '127.0.0.1', port: sink.port, secure: false, ...SMTP_CONNECTIONS, logger: false },
      { from: FROM },
    );
    let next = 0;
    const ceilingStart = performance.now();
    await Promise.all(
      Array.from({ length: SEND_CONCURRENCY }, async () => {
        while (next < messages) {
          const n = next++;
          await transport.sendMail({
            to: `ceiling${n}@example.com`,
            subject: 'Test',
            text,
            html,
            messageId: `<c${n}@x>`,
          });
        }
      }),
    );
    const ceiling: Figures = {
      perSecond: messages / ((performance.now() - ceilingStart) / 1000),
      messages,
      duplicates: 0,
    };
    transport.close();
    sink.arrivals.clear();
    const receivedBefore = sink.received();

    progress(`backlog: queueing ${messages} messages, then starting the sender…`);
    const backlog = new Set<string>();
    for (let n = 1; n <= messages; n++) backlog.add(await queue(n));
    backlog.add(sampleId);
    const application = await createApplication(config, logger);
    undo.push(() => application.close());
    await until(() => [...backlog].every((id) => sink.arrivals.has(id)), 'the backlog');
    const times = [...backlog].map((id) => sink.arrivals.get(id)!).sort((a, b) => a - b);
    const drained: Figures = {
      perSecond: (times.length - 1) / ((times.at(-1)! - times[0]!) / 1000),
      messages: times.length,
      duplicates: 0,
    };

    progress(`steady: ${rate} messages/s for ${durationS} s…`);
    const queuedAt = new Map<string, number>();
    const steadyStart = performance.now();
    for (let n = 0; n < rate * durationS; n++) {
      const due = steadyStart + (n * 1000) / rate;
      const wait = due - performance.now();
      if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
      const before = performance.now();
      queuedAt.set(await queue(messages + 1 + n), before);
    }
    await until(() => [...queuedAt.keys()].every((id) => sink.arrivals.has(id)), 'the steady load');
    await new Promise((resolve) => setTimeout(resolve, 1_000)); // time for a repeat to show
    const latencies = [...queuedAt].map(([id, at]) => sink.arrivals.get(id)! - at).sort((a, b) => a - b);
    const steady: Figures = {
      perSecond: latencies.length / ((performance.now() - steadyStart - 1_000) / 1000),
      p50: percentile(latencies, 50),
      p99: percentile(latencies, 99),
      messages: latencies.length,
      duplicates: sink.received() - receivedBefore - sink.arrivals.size,
    };
    drained.duplicates = steady.duplicates;

    const row = (name: string, f: Figures, share: boolean, note: string) =>
      resultRow(name, f, f.messages, share ? ceiling : null, note);
    console.log(`### Mail sender, ${database.label}, ${new Date().toISOString().slice(0, 10)}

${machineLine(loadBefore)}
sender, queueing and SMTP server in one Node.js ${process.version} process. Duplicates (a message accepted twice): ${steady.duplicates}.

| Measure | messages/s | of ceiling | p50 ms | p99 ms | messages | What it is |
| --- | ---: | ---: | ---: | ---: | ---: | --- |
${row('ceiling (nodemailer alone)', ceiling, false, `${SEND_CONCURRENCY} in flight, the mailer's connection settings, no queue`)}
${row('backlog drained', drained, true, `${messages + 1} queued, then the sender started: first to last accepted`)}
${row(`steady ${rate}/s, queued → accepted`, steady, false, `${rate * durationS} queued at ${rate}/s; latency from the enqueue to the SMTP server's acceptance`)}`);
  } finally {
    for (const step of undo.reverse()) await step().catch((error: Error) => progress(`clean-up: ${error.message}`));
  }
}

main().catch((error: Error) => {
  process.exitCode = 1;
  progress(`The benchmark failed: ${error.message}`);
});
