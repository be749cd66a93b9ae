/**
 * `pnpm measure-release [--runs N]`: how fast the built release starts and how much memory it
 * holds idle, on a fresh SQLite file in a temporary directory. It starts the release N times on
 * an empty database (migrations, admin, first signing key) and N times on that database again,
 * timing each from spawn to the first 200 on GET /ready, and reads the resident memory
 * (VmRSS of /proc/<pid>/status) once the server has been idle a few seconds. Memory after load
 * is the benchmark's (`pnpm bench`), which runs this same release.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { delay, freePort, processMemory, RELEASE_DIR } from './release-process';

const READY_POLL_MS = 5;
const IDLE_SETTLE_MS = 3_000;
const START_LIMIT_MS = 30_000;

interface Start {
  readyMs: number;
  idleRssMiB: number;
}

async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  await exited;
}

/** Spawns the release on `directory`'s database and times it to its first 200 on /ready. */
async function startOnce(directory: string): Promise<Start> {
  const port = await freePort();
  const started = performance.now();
  const child = spawn(process.execPath, [join(RELEASE_DIR, 'server.mjs')], {
    cwd: directory,
    env: {
      PATH: process.env.PATH ?? '',
      HOST: '127.0.0.1',
      PORT: String(port),
      LOG_LEVEL: 'warn',
      DATABASE_URL: 'sqlite:./app.db',
      ADMIN_KEY_PATH: './admin.key',
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  try {
    for (;;) {
      if (child.exitCode !== null)
        throw new Error(`The release exited with code ${child.exitCode} before it was ready.`);
      if (performance.now() - started > START_LIMIT_MS)
        throw new Error(`The release was not ready within ${START_LIMIT_MS} ms.`);
      const status = await fetch(`http://127.0.0.1:${port}/ready`).then(
        (response) => response.status,
        () => 0,
      );
      if (status === 200) break;
      await delay(READY_POLL_MS);
    }
    const readyMs = performance.now() - started;
    await delay(IDLE_SETTLE_MS);
    return { readyMs, idleRssMiB: (await processMemory(child.pid!))?.rssMiB ?? Number.NaN };
  } finally {
    await stop(child);
  }
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const range = (values: number[], digits: number) =>
  `${median(values).toFixed(digits)} (${Math.min(...values).toFixed(digits)}–${Math.max(...values).toFixed(digits)})`;

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { runs: { type: 'string', default: '5' } } });
  const runs = Number(values.runs);
  if (!Number.isInteger(runs) || runs < 1 || runs > 20) throw new Error('--runs must be a whole number from 1 to 20');
  const rows: [string, Start[]][] = [];
  for (const [label, fresh] of [
    ['empty database (migrations, admin, signing key)', true],
    ['existing database (a restart)', false],
  ] as const) {
    const starts: Start[] = [];
    const directory = await mkdtemp(join(tmpdir(), 'uas-measure-'));
    try {
      if (!fresh) await startOnce(directory);
      for (let run = 0; run < runs; run++) {
        starts.push(await startOnce(fresh ? await mkdtemp(join(directory, 'run-')) : directory));
      }
    } finally {
      await rm(directory, { recursive: true, force: true });
    }
    rows.push([label, starts]);
  }
  process.stdout.write(
    `Release start on SQLite, ${runs} runs each; median (min–max). Node ${process.version}, ${cpus().length} cores, load average ${loadavg()[0]!.toFixed(1)}.\n\n`,
  );
  process.stdout.write('| Start on | Spawn to first 200 on /ready, ms | Idle RSS, MiB |\n|---|---:|---:|\n');
  for (const [label, starts] of rows) {
    process.stdout.write(
      `| ${label} | ${range(
        starts.map((s) => s.readyMs),
        0,
      )} | ${range(
        starts.map((s) => s.idleRssMiB),
        1,
      )} |\n`,
    );
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`${(error as Error)?.message ?? error}\n`);
  process.exit(1);
});
