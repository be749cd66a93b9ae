import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';
import { afterAll } from 'vitest';
import { RELEASE_DIR, ServerProcesses } from '../../../../scripts/release-process';
import { type Backend, testDatabaseEnv } from './test-application';

const SERVER_DIR = fileURLToPath(new URL('../..', import.meta.url));

export interface CliResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

/**
 * Starts the release's `uas` program (`node <release>/uas.mjs …`, as production runs it)
 * configured by `env` alone. Without the server's stdin guard: the CLI reads its input there.
 */
export function spawnCli(args: string[], env: Record<string, string>): ChildProcess {
  return spawn(process.execPath, [join(RELEASE_DIR, 'uas.mjs'), ...args], {
    cwd: SERVER_DIR,
    env: { PATH: process.env.PATH ?? '', BCRYPT_COST: '4', ...env },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
}

/** Runs `uas` to its end, feeding `stdin`, and answers its exit and everything it printed. */
export function runCli(args: string[], env: Record<string, string>, stdin = ''): Promise<CliResult> {
  const child = spawnCli(args, env);
  return finished(child, stdin);
}

export function finished(child: ChildProcess, stdin = ''): Promise<CliResult> {
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  // A program that ends (or is killed) before reading all its input closes the pipe: not a failure here.
  child.stdin!.on('error', () => {});
  child.stdin!.end(stdin);
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('close', (code, signal) => resolve({ code, signal, stdout, stderr }));
  });
}

/**
 * For the CLI's tests on `backend`, inside a `describe`: fresh databases, each with its own folder
 * and admin key, and temporary folders, all removed after the `describe`'s tests.
 */
export function cliWorkspace(backend: Backend) {
  const dirs = new ServerProcesses();
  const removals: (() => Promise<void>)[] = [];
  afterAll(async () => {
    for (const remove of removals) await remove();
    await dirs.cleanup();
  });
  return {
    tempDir: () => dirs.tempDir(),
    /** The environment of a fresh, empty database. */
    async freshEnv(): Promise<Record<string, string>> {
      const dir = await dirs.tempDir();
      const database = await testDatabaseEnv(backend, dir);
      removals.push(database.remove);
      return { ...database.env, ADMIN_KEY_PATH: join(dir, 'admin.key') };
    },
  };
}
