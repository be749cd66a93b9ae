import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, it } from 'vitest';
import { serveWorker, type ServedWorker } from '../../packages/domain/runtimes/workerd.ts';
import { bundleWorker } from '../cloudflare-worker/bundle.ts';
import { signUpLogInReadMe } from './account-flow.ts';

let directory: string;
let worker: ServedWorker;

beforeAll(async () => {
  directory = await mkdtemp(join(tmpdir(), 'uas-worker-'));
  worker = await serveWorker(await bundleWorker(directory), directory);
});

afterAll(async () => {
  await worker?.stop();
  await rm(directory, { recursive: true, force: true });
});

it('the Worker, served by workerd, signs a user up, logs them in and answers /me', () => signUpLogInReadMe(worker.url));
