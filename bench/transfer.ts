/**
 * `pnpm bench:transfer [--postgres] [--users N]`: the operator CLI's import and export of N users
 * (default 1,000,000) with bcrypt hashes, against a fresh database, as separate processes whose
 * resident memory is sampled throughout. The import's input holds 1 bad record per 100 good
 * ones; the run checks that each is reported with its line and none is written. Beside each
 * figure, a same-run ceiling: a bare Node process that only parses the same file (import) or
 * only copies it (export).
 */
import { spawn } from 'node:child_process';
import { createWriteStream } from 'node:fs';
import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { once } from 'node:events';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import type { ImportReport } from '@uas/domain';
import { processMemory, RELEASE_DIR } from '../scripts/release-process';
import { LOCAL_POSTGRES_URL, postgresDatabase, sqliteDatabase, type BenchDatabase } from './database';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
/** A cost-10 bcrypt hash ("correct horse battery"), as an export from a bcrypt-based service holds. */
const HASH = '$2b$10$Yq7rE1d7h3bYk8TbJ2m0fOm8p0l6b3iR1yq9u1WZ8VqZ0p0rJ0G3K';
const BAD_EVERY = 101;
const SAMPLE_MS = 250;

interface Run {
  seconds: number;
  /** VmRSS samples in MiB, and the peak (VmHWM) at the end. */
  rss: number[];
  peakMiB: number;
  stdout: string;
  stderr: string;
  code: number | null;
}

/** Runs `node args…` in the repository, sampling its VmRSS until it exits. */
async function measured(args: string[], env: Record<string, string>, stdoutPath?: string): Promise<Run> {
  const started = performance.now();
  const child = spawn(process.execPath, args, {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  if (stdoutPath) child.stdout.pipe(createWriteStream(stdoutPath));
  else child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const rss: number[] = [];
  let peakMiB = 0;
  const sample = async () => {
    const memory = await processMemory(child.pid!);
    if (memory) {
      rss.push(memory.rssMiB);
      peakMiB = Math.max(peakMiB, memory.peakMiB);
    }
  };
  const timer = setInterval(() => void sample(), SAMPLE_MS);
  const [code] = (await once(child, 'close')) as [number | null];
  clearInterval(timer);
  return { seconds: (performance.now() - started) / 1000, rss, peakMiB, stdout, stderr, code };
}

/** N good records and one bad one after every BAD_EVERY - 1 lines; answers the bad lines' numbers. */
async function writeInput(path: string, users: number): Promise<number[]> {
  const out = createWriteStream(path);
  const bad: number[] = [];
  let line = 0;
  const write = async (text: string) => {
    if (!out.write(text)) await once(out, 'drain');
  };
  for (let i = 0; i < users; i += 1) {
    line += 1;
    if (line % BAD_EVERY === 0) {
      bad.push(line);
      await write(`{"email":"bad-${i}","password_hash":"${HASH}"}\n`);
      line += 1;
    }
    const created = new Date(Date.UTC(2024, 0, 1) + i).toISOString();
    await write(
      `{"name":"User ${i}","email":"user${i}@example.com","password_hash":"${HASH}","metadata":{"n":${i}},"app":{},"active":1,"created":"${created}","updated":"${created}"}\n`,
    );
  }
  out.end();
  await once(out, 'finish');
  return bad;
}

const CEILING_IMPORT = `const rl=require('node:readline').createInterface({input:require('node:fs').createReadStream(process.argv[1])});let n=0;rl.on('line',(l)=>{if(l)JSON.parse(l);n++});rl.on('close',()=>console.log(n))`;
const CEILING_EXPORT = `require('node:stream').pipeline(require('node:fs').createReadStream(process.argv[1]),require('node:fs').createWriteStream(process.argv[2]),(e)=>process.exit(e?1:0))`;

const flat = (rss: number[]) => {
  const quarter = (q: number) => rss[Math.min(rss.length - 1, Math.floor((rss.length - 1) * q))]?.toFixed(0) ?? '?';
  return `${quarter(0.25)} / ${quarter(0.5)} / ${quarter(0.75)} / ${quarter(1)}`;
};

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: { postgres: { type: 'boolean', default: false }, users: { type: 'string', default: '1000000' } },
  });
  const users = Number(values.users);
  if (!Number.isInteger(users) || users < 1000 || users > 5_000_000)
    throw new Error('--users must be a whole number from 1000 to 5000000');
  const dir = await mkdtemp(join(tmpdir(), 'uas-bench-transfer-'));
  let database: BenchDatabase | undefined;
  try {
    database = values.postgres
      ? await postgresDatabase(process.env.BENCH_DATABASE_URL ?? LOCAL_POSTGRES_URL)
      : sqliteDatabase(dir);
    const env = { ...database.env, ADMIN_KEY_PATH: join(dir, 'admin.key') };
    const input = join(dir, 'users.ndjson');
    process.stderr.write(`Writing ${users.toLocaleString('en')} records…\n`);
    const bad = await writeInput(input, users);
    const cli = [join(RELEASE_DIR, 'uas.mjs')];

    process.stderr.write('Importing…\n');
    const imported = await measured([...cli, 'users', 'import', input, '--quiet'], env);
    const report = JSON.parse(imported.stdout) as ImportReport;
    const reportedLines = imported.stderr
      .split('\n')
      .flatMap((line) => /^line (\d+):/.exec(line)?.[1] ?? [])
      .map(Number);
    const badOk = report.created === users && report.rejected === bad.length && reportedLines.join() === bad.join();
    const importCeiling = await measured(['-e', CEILING_IMPORT, input], {});

    process.stderr.write('Exporting…\n');
    const output = join(dir, 'export.ndjson');
    const exported = await measured(
      [...cli, 'users', 'export', '--with-password-hashes', '--quiet', '--output', output],
      env,
    );
    const exportedLines = await readFile(output, 'utf8')
      .then((text) => text.split('\n').length - 1)
      .catch(() => -1);
    const exportCeiling = await measured(['-e', CEILING_EXPORT, output, join(dir, 'copy.ndjson')], {});
    const size = (await stat(input)).size / 1024 / 1024;

    const row = (what: string, run: Run, ceiling: Run) =>
      `| ${what} | ${run.seconds.toFixed(1)} s | ${Math.round(users / run.seconds).toLocaleString('en')}/s | ${ceiling.seconds.toFixed(1)} s | ${(run.seconds / ceiling.seconds).toFixed(1)}× | ${flat(run.rss)} | ${run.peakMiB.toFixed(0)} | ${run.code} |`;
    console.log(`\n### ${database.label}: ${users.toLocaleString('en')} users, input ${size.toFixed(0)} MiB\n`);
    console.log(
      '| Work | Time | Users/s | Ceiling (bare Node, same file) | Ratio | VmRSS MiB at 25/50/75/100 % | VmHWM MiB | Exit |',
    );
    console.log('|---|---|---|---|---|---|---|---|');
    console.log(row('import (1 bad per 100)', imported, importCeiling));
    console.log(row('export, with hashes', exported, exportCeiling));
    console.log(
      `\nBad records: ${bad.length.toLocaleString('en')} in the input, ${report.rejected.toLocaleString('en')} rejected, ` +
        `${reportedLines.length === bad.length && badOk ? 'each reported with its own line' : 'NOT all reported with their lines'}; ` +
        `${report.created.toLocaleString('en')} created; export wrote ${exportedLines.toLocaleString('en')} lines.`,
    );
    if (!badOk || exportedLines !== users || imported.code !== 3 || exported.code !== 0) process.exitCode = 1;
  } finally {
    await database?.drop();
    await rm(dir, { recursive: true, force: true });
  }
}

await main();
