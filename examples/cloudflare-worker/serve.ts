/** Serves the example Worker locally with workerd until Ctrl-C: `pnpm --filter @uas/examples worker`. */
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
// The domain's runtime checks start workerd the same way.
import { serveWorker } from '../../packages/domain/runtimes/workerd.ts';
import { bundleWorker } from './bundle.ts';

const directory = await mkdtemp(join(tmpdir(), 'uas-worker-'));
const worker = await serveWorker(await bundleWorker(directory), directory);
console.log(`Worker listening on ${worker.url} (POST /signup, POST /login, GET /me)`);
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => void worker.stop());
