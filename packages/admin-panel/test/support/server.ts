import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const REPO_ROOT = fileURLToPath(new URL('../../../../', import.meta.url));
const START_TIMEOUT_MS = 60_000;

interface AdminCredentials {
  email: string;
  password: string;
}

export interface RunningServer {
  baseUrl: string;
  admin: AdminCredentials;
  /** What the server wrote to stdout and stderr, for failure messages. */
  output(): string;
  stop(): Promise<void>;
}

/**
 * Starts the real service as a child process on a free port, a fresh SQLite file and a fresh
 * admin key file, and waits until /health answers.
 */
export async function startServer(extraEnv: Record<string, string> = {}): Promise<RunningServer> {
  const dir = await mkdtemp(join(tmpdir(), 'admin-panel-e2e-'));
  const port = await freePort();
  const baseUrl = `http://127.0.0.1:${port}`;
  const keyPath = join(dir, 'admin.key');
  const child = spawn(process.execPath, ['release/server.mjs'], {
    cwd: REPO_ROOT,
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATABASE_URL: `sqlite:${join(dir, 'app.db')}`,
      ADMIN_KEY_PATH: keyPath,
      BCRYPT_COST: '4',
      LOG_LEVEL: 'warn',
      ...extraEnv,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const collect = (chunk: Buffer) => {
    output = (output + chunk.toString()).slice(-20_000);
  };
  child.stdout.on('data', collect);
  child.stderr.on('data', collect);

  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      const exited = once(child, 'exit');
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
      await exited;
      clearTimeout(timer);
    }
    await rm(dir, { recursive: true, force: true });
  };

  try {
    await waitForHealth(baseUrl, () => child.exitCode !== null);
    const admin = JSON.parse(await readFile(keyPath, 'utf8')) as AdminCredentials;
    return { baseUrl, admin, output: () => output, stop };
  } catch (error) {
    await stop();
    throw new Error(`${(error as Error).message}\n--- server output ---\n${output}`);
  }
}

async function waitForHealth(baseUrl: string, exited: () => boolean): Promise<void> {
  const deadline = Date.now() + START_TIMEOUT_MS;
  while (Date.now() < deadline) {
    if (exited()) throw new Error('The server exited before it was ready.');
    try {
      if ((await fetch(`${baseUrl}/health`)).status === 200) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`The server did not answer GET /health within ${START_TIMEOUT_MS} ms.`);
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.unref();
    probe.on('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() =>
        typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port')),
      );
    });
  });
}
