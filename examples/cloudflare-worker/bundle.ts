import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

/** Bundles the Worker as wrangler would (esbuild, ESM, browser conditions) into `directory`/worker.js. */
export async function bundleWorker(directory: string): Promise<string> {
  const outfile = join(directory, 'worker.js');
  await build({
    entryPoints: [fileURLToPath(new URL('worker.ts', import.meta.url))],
    bundle: true,
    format: 'esm',
    platform: 'browser',
    conditions: ['workerd', 'worker', 'browser'],
    target: 'es2022',
    outfile,
    logLevel: 'warning',
  });
  return outfile;
}
