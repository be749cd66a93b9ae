import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, open, readFile, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

// Server processes of the built release, for the process tests, the panel's tests, the benchmark
// and the release measurement alike: plain Node, no test runner in it.

/** The built release (`pnpm build`), which is what production runs: the process tests run it too. */
export const RELEASE_DIR = fileURLToPath(new URL('../release', import.meta.url));
const PRELOAD = new URL('./exit-with-parent.mjs', import.meta.url).href;

/** `node [the guard that ends it with its parent] <release>/<program>.mjs …args`, failing clearly when not built. */
export function releaseCommand(program: string, args: readonly string[] = [], releaseDir = RELEASE_DIR): string[] {
  const file = join(releaseDir, `${program}.mjs`);
  if (!existsSync(file)) throw new Error(`${file} does not exist: run \`pnpm build\` first (\`pnpm test\` does).`);
  return ['--import', PRELOAD, file, ...args];
}

/** Longest wait for a process to answer /health 200 (2 shared cores, busy with other tests). */
export const START_TIMEOUT_MS = 30_000;
/** Longest wait for a process to exit after SIGTERM before it is killed. */
export const STOP_TIMEOUT_MS = 15_000;
/** Longest any one request to a test server may take. */
const REQUEST_TIMEOUT_MS = 15_000;

/** What every started process gets unless the test says otherwise: loopback only, cheap bcrypt. */
const BASE_ENV = { HOST: '127.0.0.1', BCRYPT_COST: '4', LOG_LEVEL: 'info' };

export interface SpawnOptions {
  /** Working directory (default: a fresh temporary one, so no `.env` file is read). */
  cwd?: string;
  /** The port the process will listen on by its own configuration; PORT is then not set. */
  port?: number;
  /**
   * Its stdout (the log) goes straight to this file, as in production, without passing through
   * this process: for a long run under load. `stdout` and `logLines()` stay empty then.
   */
  logFile?: string;
}

export interface Exit {
  code: number | null;
  signal: NodeJS.Signals | null;
}

/** A server process (the release's server.mjs) and everything it has written so far. */
export class ServerProcess {
  readonly url: string;
  readonly exited: Promise<Exit>;
  private out = '';
  private err = '';

  constructor(
    readonly child: ChildProcess,
    readonly port: number,
  ) {
    this.url = `http://127.0.0.1:${port}`;
    child.stdout?.setEncoding('utf8').on('data', (chunk: string) => void (this.out += chunk));
    child.stderr?.setEncoding('utf8').on('data', (chunk: string) => void (this.err += chunk));
    child.once('error', (error) => void (this.err += `spawn failed: ${error.message}\n`));
    // 'close' comes after the streams have ended, so the output is complete when this settles.
    this.exited = new Promise((resolve) => child.once('close', (code, signal) => resolve({ code, signal })));
  }

  get stdout(): string {
    return this.out;
  }

  get stderr(): string {
    return this.err;
  }

  get running(): boolean {
    return this.child.exitCode === null && this.child.signalCode === null;
  }

  /** stdout, one parsed JSON object per line (throws on a line that is not one). */
  logLines(): Record<string, unknown>[] {
    return this.out
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line) as Record<string, unknown>);
  }

  fetch(path: string, init: RequestInit = {}): Promise<Response> {
    return fetch(`${this.url}${path}`, { signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS), ...init });
  }

  /** Resolves once `text` appears on stdout; rejects after `timeoutMs` or when the process ends first. */
  async waitForOutput(text: string, timeoutMs = STOP_TIMEOUT_MS): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (!this.out.includes(text)) {
      if (!this.running)
        throw new Error(`The server ended before writing ${JSON.stringify(text)}.\n${this.describe()}`);
      if (Date.now() > deadline)
        throw new Error(`The server did not write ${JSON.stringify(text)} within ${timeoutMs} ms.\n${this.describe()}`);
      await delay(20);
    }
  }

  /** SIGTERM, then SIGKILL if it has not exited within `timeoutMs`. */
  async stop(timeoutMs = STOP_TIMEOUT_MS): Promise<Exit> {
    if (this.running) this.child.kill('SIGTERM');
    const exit = await Promise.race([this.exited, delay(timeoutMs).then(() => null)]);
    return exit ?? this.kill();
  }

  /** SIGKILL: the process gets no chance to finish anything. */
  async kill(): Promise<Exit> {
    if (this.running) this.child.kill('SIGKILL');
    return this.exited;
  }

  get pid(): number {
    return this.child.pid!;
  }

  /** Its resident memory now; fails once it has exited. */
  async memory(): Promise<ProcessMemory> {
    const memory = await processMemory(this.pid);
    if (!memory) throw new Error(`The server has exited.\n${this.describe()}`);
    return memory;
  }

  /** Exit status and output, for failure messages. */
  describe(): string {
    const status = this.running ? 'still running' : `exit code ${this.child.exitCode}, signal ${this.child.signalCode}`;
    return `server on port ${this.port} (${status})\n--- stderr ---\n${this.err}--- stdout ---\n${this.out}`;
  }
}

/**
 * Starts real server processes and owns them, with the temporary directories they use: call
 * `cleanup()` in an `afterEach`/`afterAll` and every process is killed and every directory
 * removed, whatever the test did. Each process is spawned with only the variables it is given
 * (and PATH), from a temporary working directory, so no `.env` or variable of the machine leaks in.
 */
export class ServerProcesses {
  private readonly processes = new Set<ServerProcess>();
  private readonly directories: string[] = [];

  /** The Node.js binary that runs the servers, and the release folder they run from. */
  constructor(
    private readonly runtime: { node: string; releaseDir: string } = {
      node: process.execPath,
      releaseDir: RELEASE_DIR,
    },
  ) {}

  async tempDir(): Promise<string> {
    const directory = await mkdtemp(join(tmpdir(), 'uas-process-'));
    this.directories.push(directory);
    return directory;
  }

  /**
   * Spawns the server without waiting for it, on a free port of 127.0.0.1 (or `env.PORT`). With
   * `options.port` it sets no PORT: the test tells the process itself (in a `.env` file in
   * `options.cwd`, say), and the helper only looks there.
   */
  async spawn(env: Record<string, string>, options: SpawnOptions = {}): Promise<ServerProcess> {
    const port = options.port ?? (env.PORT && /^\d+$/.test(env.PORT) ? Number(env.PORT) : await freePort());
    const log = options.logFile === undefined ? undefined : await open(options.logFile, 'w');
    const child = spawn(this.runtime.node, releaseCommand('server', [], this.runtime.releaseDir), {
      cwd: options.cwd ?? (await this.tempDir()),
      env: { PATH: process.env.PATH ?? '', ...BASE_ENV, ...(options.port ? {} : { PORT: String(port) }), ...env },
      stdio: ['pipe', log?.fd ?? 'pipe', 'pipe'],
    });
    await log?.close();
    const server = new ServerProcess(child, port);
    this.processes.add(server);
    return server;
  }

  /**
   * Spawns the server and resolves once GET /health answers 200. Rejects, with the process's stderr,
   * when it exits first or is not healthy within `timeoutMs` (it is killed then).
   */
  async start(
    env: Record<string, string>,
    options: SpawnOptions = {},
    timeoutMs = START_TIMEOUT_MS,
  ): Promise<ServerProcess> {
    const server = await this.spawn(env, options);
    const deadline = Date.now() + timeoutMs;
    while (server.running && Date.now() < deadline) {
      const status = await fetch(`${server.url}/health`, { signal: AbortSignal.timeout(2_000) }).then(
        async (response) => (await response.arrayBuffer(), response.status),
        () => 0,
      );
      if (status === 200) return server;
      await delay(100);
    }
    const reason = server.running ? `was not healthy within ${timeoutMs} ms` : 'exited before it was healthy';
    await server.kill();
    throw new Error(`The server ${reason}.\n${server.describe()}`);
  }

  /**
   * Starts a server, runs `fn` with it, then stops it with SIGTERM and expects exit code 0 (a
   * process that does not stop cleanly fails the test). Stops it too when `fn` throws.
   */
  async with<T>(
    env: Record<string, string>,
    options: SpawnOptions,
    fn: (server: ServerProcess) => Promise<T>,
  ): Promise<T> {
    const server = await this.start(env, options);
    let result: T;
    try {
      result = await fn(server);
    } catch (error) {
      await server.stop();
      throw error;
    }
    const exit = await server.stop();
    if (exit.code !== 0) throw new Error(`The server did not stop cleanly on SIGTERM.\n${server.describe()}`);
    return result;
  }

  /** Spawns the server expecting it to stop by itself (a start that must fail); kills it after `timeoutMs`. */
  async runToExit(env: Record<string, string>, timeoutMs = START_TIMEOUT_MS): Promise<ServerProcess & { exit: Exit }> {
    const server = await this.spawn(env);
    const exit = await Promise.race([server.exited, delay(timeoutMs).then(() => null)]);
    if (!exit) {
      await server.kill();
      throw new Error(`The server did not exit within ${timeoutMs} ms.\n${server.describe()}`);
    }
    return Object.assign(server, { exit });
  }

  /** SIGKILLs every process still running, at once; synchronous, so it also works in an 'exit' handler. */
  killNow(): void {
    for (const server of this.processes) if (server.running) server.child.kill('SIGKILL');
  }

  /** Kills every process still running and removes every temporary directory. */
  async cleanup(): Promise<void> {
    const processes = [...this.processes];
    this.processes.clear();
    await Promise.all(processes.map((server) => server.kill()));
    const directories = this.directories.splice(0);
    await Promise.all(directories.map((directory) => rm(directory, { recursive: true, force: true })));
  }
}

/** Resident memory of a process, from /proc/<pid>/status, in MiB. */
export interface ProcessMemory {
  rssMiB: number;
  /** VmHWM: the peak of VmRSS so far. */
  peakMiB: number;
  /** The file-backed part of VmRSS: the node binary, and database pages read through a memory map. */
  fileMiB: number;
}

/** The memory of a running process; null once it has exited. */
export async function processMemory(pid: number): Promise<ProcessMemory | null> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8').catch(() => '');
  const mib = (field: string) =>
    Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? Number.NaN) / 1024;
  return status.includes('VmRSS') ? { rssMiB: mib('VmRSS'), peakMiB: mib('VmHWM'), fileMiB: mib('RssFile') } : null;
}

export const delay = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** A port nothing listens on right now, from the kernel's ephemeral range. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() =>
        typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port')),
      );
    });
  });
}
