import { spawn } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import type { Readable } from 'node:stream';
import { createRequire } from 'node:module';

// The npm package's binary and the newest compatibility date it supports (it ships no types).
const { default: workerd, compatibilityDate } = createRequire(import.meta.url)('workerd') as {
  default: string;
  compatibilityDate: string;
};

export interface ServedWorker {
  url: string;
  stop(): Promise<void>;
}

/**
 * Serves one bundled ES module worker with workerd on a port of 127.0.0.1 that workerd picks
 * itself (it reports the port on its control fd), so parallel runs never collide.
 */
export async function serveWorker(bundle: string, directory: string): Promise<ServedWorker> {
  const config = join(directory, 'workerd.capnp');
  await writeFile(
    config,
    `using Workerd = import "/workerd/workerd.capnp";
const config :Workerd.Config = (
  services = [(name = "main", worker = (modules = [(name = "worker.js", esModule = embed "${relative(directory, bundle)}")], compatibilityDate = "${compatibilityDate}"))],
  sockets = [(name = "http", address = "127.0.0.1:0", http = (), service = "main")],
);
`,
  );
  const child = spawn(workerd, ['serve', config, '--control-fd=3'], {
    stdio: ['ignore', 'inherit', 'inherit', 'pipe'],
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const port = await new Promise<number>((resolve, reject) => {
    let control = '';
    const timer = setTimeout(() => reject(new Error('workerd did not listen within 30 s')), 30_000);
    child.once('exit', (code) => reject(new Error(`workerd exited with ${code} before listening`)));
    (child.stdio[3] as Readable).on('data', (chunk: Buffer) => {
      control += chunk;
      const lines = control.split('\n').slice(0, -1);
      const listen = lines
        .map((line) => JSON.parse(line) as { event?: string; port?: number })
        .find((event) => event.event === 'listen');
      if (listen?.port) {
        clearTimeout(timer);
        resolve(listen.port);
      }
    });
  }).catch(async (error: unknown) => {
    child.kill('SIGKILL');
    throw error;
  });
  return {
    url: `http://127.0.0.1:${port}`,
    async stop() {
      child.kill('SIGTERM');
      await exited;
    },
  };
}
