import { spawn, type ChildProcess } from 'node:child_process';
import { open, readFile } from 'node:fs/promises';
import { join } from 'node:path';
// Plain node code shared with the process-level tests (no vitest in it). The release is what
// production runs; its guard ends the server when its stdin closes (this benchmark died).
import {
  delay,
  freePort,
  processMemory,
  releaseCommand,
  START_TIMEOUT_MS,
  STOP_TIMEOUT_MS,
  type ProcessMemory,
} from '../scripts/release-process';

/** Every server still running, killed by `killAll()` on any way out of the benchmark. */
const running = new Set<ChildProcess>();

/** A server process (the release's server.mjs) on 127.0.0.1. */
export class BenchServer {
  readonly url: string;
  private readonly exited: Promise<void>;
  private stderr = '';

  private constructor(
    private readonly child: ChildProcess,
    port: number,
    private readonly logPath: string,
  ) {
    this.url = `http://127.0.0.1:${port}`;
    running.add(child);
    child.stderr?.setEncoding('utf8').on('data', (chunk: string) => void (this.stderr += chunk));
    this.exited = new Promise((resolve) => child.once('close', () => (running.delete(child), resolve())));
  }

  /**
   * Spawns the server with only `env` (and PATH, HOST, PORT) from `cwd`, so no `.env` file or
   * variable of this machine leaks in, and resolves once GET /health answers 200. Its log (stdout)
   * goes straight to a file in `cwd`, as in production, without passing through this process.
   */
  static async start(env: Record<string, string>, cwd: string): Promise<BenchServer> {
    const port = await freePort();
    const logPath = join(cwd, `server-${port}.log`);
    const log = await open(logPath, 'w');
    const child = spawn(process.execPath, releaseCommand('server'), {
      cwd,
      env: { PATH: process.env.PATH ?? '', HOST: '127.0.0.1', PORT: String(port), ...env },
      stdio: ['pipe', log.fd, 'pipe'],
    });
    await log.close();
    const server = new BenchServer(child, port, logPath);
    const deadline = Date.now() + START_TIMEOUT_MS;
    while (server.running && Date.now() < deadline) {
      const healthy = await fetch(`${server.url}/health`, { signal: AbortSignal.timeout(2_000) }).then(
        async (response) => (await response.arrayBuffer(), response.ok),
        () => false,
      );
      if (healthy) return server;
      await delay(100);
    }
    const reason = server.running ? `was not healthy within ${START_TIMEOUT_MS} ms` : 'exited before it was healthy';
    await server.stop();
    throw new Error(`The server ${reason}.\n${server.stderr}`);
  }

  get running(): boolean {
    return this.child.exitCode === null && this.child.signalCode === null;
  }

  /** The log lines at level error (5xx answers and their causes), for a report of what went wrong. */
  async errorLines(): Promise<string[]> {
    return (await readFile(this.logPath, 'utf8')).split('\n').filter((line) => line.includes('"level":"error"'));
  }

  async memory(): Promise<ProcessMemory> {
    const memory = await processMemory(this.child.pid!);
    if (!memory) throw new Error('The measured server has exited.');
    return memory;
  }

  /** SIGTERM (the server drains and exits), then SIGKILL if it is still there after 15 s. */
  async stop(): Promise<void> {
    if (this.running) this.child.kill('SIGTERM');
    const timer = setTimeout(() => this.child.kill('SIGKILL'), STOP_TIMEOUT_MS);
    await this.exited;
    clearTimeout(timer);
  }
}

/** Kills every server still running, at once; synchronous, so it also works in an 'exit' handler. */
export function killAll(): void {
  for (const child of running) child.kill('SIGKILL');
}
