import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'vite';

const PANEL_ROOT = fileURLToPath(new URL('../../', import.meta.url));
const SOURCES = ['src', 'index.html', 'vite.config.ts'];

/**
 * Builds dist/ when it is missing or older than a source file, so the tests see the current
 * panel without rebuilding (and emptying) a fresh dist/ that a running server may be serving.
 */
export async function buildPanelIfStale(): Promise<void> {
  const built = join(PANEL_ROOT, 'dist', 'index.html');
  if (existsSync(built) && statSync(built).mtimeMs >= newestSource()) return;
  await build({ root: PANEL_ROOT, logLevel: 'warn' });
}

function newestSource(): number {
  return Math.max(...SOURCES.map((name) => newestIn(join(PANEL_ROOT, name))));
}

function newestIn(path: string): number {
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  return Math.max(stat.mtimeMs, ...readdirSync(path).map((entry) => newestIn(join(path, entry))));
}
