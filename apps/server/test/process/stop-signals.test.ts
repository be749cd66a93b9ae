import { spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { Agent, request } from 'node:http';
import { connect, type Socket } from 'node:net';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { bearer } from '@uas/adapters-http/testing';
import { loginAsAdmin, readAdminKeyFile } from '../support/admin-api';
import { droppedBefore, startLoad } from '../support/request-load';
import { delay, freePort, ServerProcess, ServerProcesses, STOP_TIMEOUT_MS } from '../../../../scripts/release-process';
import { BACKENDS, testDatabaseEnv } from '../support/test-application';

const REPO_ROOT = fileURLToPath(new URL('../../../..', import.meta.url));
/** Concurrent keep-alive clients of the load, and how long it runs before the signal. */
const CLIENTS = 8;
const LOAD_BEFORE_SIGNAL_MS = 1_500;
const LOADED_PATH = '/v1/admin/users?page[size]=5';

function connectionRefused(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => (socket.destroy(), resolve(false)));
    socket.once('error', (error: NodeJS.ErrnoException) => resolve(error.code === 'ECONNREFUSED'));
  });
}

/** A request the server has begun (its headers are read) and that never ends: its body never comes. */
async function hangingRequest(port: number): Promise<{ socket: Socket; closed: Promise<void> }> {
  const socket = connect(port, '127.0.0.1');
  await new Promise((resolve) => socket.once('connect', resolve));
  socket.write(
    'POST /v1/admin/login HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{',
  );
  socket.resume();
  const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
  return { socket, closed };
}

/** GET /ready over `agent`, whose one keep-alive connection was opened before the stop began. */
function readyOver(agent: Agent, port: number): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    request({ host: '127.0.0.1', port, path: '/ready', agent }, (res) => {
      let body = '';
      res.setEncoding('utf8').on('data', (chunk: string) => (body += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    })
      .on('error', reject)
      .end();
  });
}

/** Every process of the process group `pgid` still alive (read from /proc: Linux). */
function processesInGroup(pgid: number): number[] {
  return readdirSync('/proc')
    .filter((entry) => /^\d+$/.test(entry))
    .filter((pid) => {
      try {
        const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
        const [state, , group] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
        return state !== 'Z' && Number(group) === pgid;
      } catch {
        return false; // ended while we looked
      }
    })
    .map(Number);
}

/**
 * The README's start command. Its install and build steps have ended before the server starts,
 * so here they are `true`: the test must not rebuild the release other tests are running.
 */
async function readmeStartCommand(): Promise<string> {
  const readme = await readFile(join(REPO_ROOT, 'README.md'), 'utf8');
  const line = /^npx -y pnpm@10 install && npx -y pnpm@10 build && (node release\/server\.mjs)$/m.exec(readme);
  if (!line)
    throw new Error('The README no longer starts the service with install && build && node release/server.mjs.');
  return `true && true && ${line[1]}`;
}

describe.each(BACKENDS)('stopping the release on %s', { timeout: 90_000 }, (backend) => {
  const servers = new ServerProcesses();
  const removals: (() => Promise<void>)[] = [];
  afterAll(async () => {
    await servers.cleanup();
    for (const remove of removals) await remove();
  });

  async function environment(extra: Record<string, string> = {}): Promise<Record<string, string>> {
    const dir = await servers.tempDir();
    const database = await testDatabaseEnv(backend, dir);
    removals.push(database.remove);
    return { ...database.env, DATABASE_POOL_SIZE: '4', ADMIN_KEY_PATH: join(dir, 'admin.key'), ...extra };
  }

  async function loadedServer(server: Pick<ServerProcess, 'fetch'>, port: number, keyPath: string) {
    const { accessToken } = await loginAsAdmin(server, await readAdminKeyFile(keyPath));
    const load = startLoad(port, LOADED_PATH, CLIENTS, bearer(accessToken));
    await delay(LOAD_BEFORE_SIGNAL_MS);
    return load;
  }

  it('SIGTERM to its node process under load: every request sent before it is answered, /ready turns 503, exit 0, port closed', async () => {
    const env = await environment();
    const server = await servers.start(env);
    const probe = new Agent({ keepAlive: true, maxSockets: 1 });
    try {
      expect((await readyOver(probe, server.port)).status).toBe(200);
      const load = await loadedServer(server, server.port, env.ADMIN_KEY_PATH!);

      const signalledAt = performance.now();
      server.child.kill('SIGTERM');
      await server.waitForOutput('"msg":"stopping: finishing in-flight requests"');
      const ready = await readyOver(probe, server.port);
      expect(ready.status).toBe(503);
      expect(JSON.parse(ready.body)).toEqual({
        errors: [{ status: '503', code: 'not_ready', title: 'Not ready', detail: 'This instance is stopping.' }],
      });

      expect(await server.exited).toEqual({ code: 0, signal: null });
      const requests = await load.stop();
      const answeredBefore = requests.filter((r) => r.sentAt < signalledAt && r.status === 200);
      expect(answeredBefore.length).toBeGreaterThan(CLIENTS);
      expect(droppedBefore(requests, signalledAt)).toEqual([]);
      expect(requests.filter((r) => r.status !== undefined && r.status !== 200)).toEqual([]);
      expect(await connectionRefused(server.port)).toBe(true);
      expect(server.logLines().at(-1)).toMatchObject({ msg: 'stopped' });
    } finally {
      probe.destroy();
    }
  });

  it('SIGINT to the process group of the README start command (Ctrl-C) under load: nothing dropped, nothing left running or listening', async () => {
    const env = await environment();
    const port = await freePort();
    const child = spawn('sh', ['-c', await readmeStartCommand()], {
      cwd: REPO_ROOT,
      detached: true, // a process group of its own, as a terminal gives a command it runs
      env: { PATH: process.env.PATH ?? '', HOST: '127.0.0.1', PORT: String(port), BCRYPT_COST: '4', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const group = child.pid!;
    const shell = new ServerProcess(child, port);
    try {
      await waitForReady(shell);
      const load = await loadedServer(shell, port, env.ADMIN_KEY_PATH!);

      const signalledAt = performance.now();
      process.kill(-group, 'SIGINT');
      // The shell ends by the SIGINT it got too, as a shell does; the server has stopped cleanly.
      const exit = await Promise.race([shell.exited, delay(STOP_TIMEOUT_MS).then(() => null)]);
      expect(exit, shell.describe()).not.toBeNull();
      expect(shell.logLines().at(-1), shell.describe()).toMatchObject({ msg: 'stopped' });
      const requests = await load.stop();
      expect(droppedBefore(requests, signalledAt)).toEqual([]);
      expect(requests.filter((r) => r.sentAt < signalledAt && r.status === 200).length).toBeGreaterThan(CLIENTS);
      expect(processesInGroup(group)).toEqual([]);
      expect(await connectionRefused(port)).toBe(true);
    } finally {
      if (processesInGroup(group).length > 0) process.kill(-group, 'SIGKILL');
    }
  });

  it('a second signal exits at once (128 + SIGTERM), without waiting for the request in flight', async () => {
    const server = await servers.start(await environment());
    const hanging = await hangingRequest(server.port);
    server.child.kill('SIGTERM');
    await server.waitForOutput('"msg":"stopping: finishing in-flight requests"');
    const secondAt = Date.now();
    server.child.kill('SIGTERM');
    expect(await server.exited).toEqual({ code: 143, signal: null });
    expect(Date.now() - secondAt).toBeLessThan(3_000); // the grace period is 10 s
    await hanging.closed;
  });

  it('the grace period bounds the drain: a request that never ends loses its connection, and the process still exits 0', async () => {
    const server = await servers.start(await environment({ SHUTDOWN_GRACE_SECONDS: '1' }));
    const hanging = await hangingRequest(server.port);
    const signalledAt = Date.now();
    server.child.kill('SIGTERM');
    await hanging.closed;
    expect(await server.exited).toEqual({ code: 0, signal: null });
    expect(Date.now() - signalledAt).toBeGreaterThanOrEqual(1_000);
    expect(Date.now() - signalledAt).toBeLessThan(STOP_TIMEOUT_MS);
    expect(server.logLines().map((line) => line.msg)).toContain(
      'in-flight requests did not finish within the grace period; closing their connections',
    );
  });
});

async function waitForReady(server: ServerProcess): Promise<void> {
  const deadline = Date.now() + 30_000;
  while (Date.now() < deadline) {
    if (!server.running) throw new Error(`The start command ended.\n${server.describe()}`);
    const status = await fetch(`${server.url}/ready`).then(
      (r) => r.status,
      () => 0,
    );
    if (status === 200) return;
    await delay(100);
  }
  throw new Error(`The start command did not become ready.\n${server.describe()}`);
}
