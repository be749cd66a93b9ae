import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { ServerProcesses } from '../../../../scripts/release-process';

/** Longest wait for the server to answer /health: the panel's suites start while others run. */
const START_TIMEOUT_MS = 60_000;

/** The real server the panel is served by, and the admin the first start wrote to its key file. */
export interface PanelServer {
  baseUrl: string;
  admin: { email: string; password: string };
}

/** Starts the release's server through `processes` (which stops it) on a fresh SQLite file. */
export async function startPanelServer(processes: ServerProcesses, env: Record<string, string>): Promise<PanelServer> {
  const dir = await processes.tempDir();
  const keyPath = join(dir, 'admin.key');
  const server = await processes.start(
    { DATABASE_URL: `sqlite:${join(dir, 'app.db')}`, ADMIN_KEY_PATH: keyPath, LOG_LEVEL: 'warn', ...env },
    { cwd: dir },
    START_TIMEOUT_MS,
  );
  return { baseUrl: server.url, admin: JSON.parse(await readFile(keyPath, 'utf8')) };
}
