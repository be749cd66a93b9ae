import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { delay, freePort } from '../../../../scripts/release-process';

const require = createRequire(import.meta.url);
/** Stoplight Prism's CLI, run by this Node (its `bin` is a script, not a binary). */
const PRISM = join(dirname(require.resolve('@stoplight/prism-cli/package.json')), 'dist', 'index.js');
const START_TIMEOUT_MS = 60_000;

export interface PrismProxy {
  url: string;
  stop(): Promise<void>;
}

/**
 * `prism proxy <document> <upstream>`: forwards every request to the service and checks the
 * request and the response against the OpenAPI document. With `errors`, a violation replaces the
 * response with Prism's own problem (application/problem+json); without, the response passes and
 * the `sl-violations` header lists what was wrong.
 */
export async function startPrismProxy(documentPath: string, upstream: string, { errors }: { errors: boolean }) {
  const port = await freePort();
  const args = ['proxy', documentPath, upstream, '--host', '127.0.0.1', '--port', String(port)];
  const child = spawn(process.execPath, [PRISM, ...args, ...(errors ? ['--errors'] : [])], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => void (output += chunk));
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => void (output += chunk));
  const exited = new Promise<void>((resolve) => child.once('close', () => resolve()));
  const deadline = Date.now() + START_TIMEOUT_MS;
  while (!output.includes('Prism is listening')) {
    if (child.exitCode !== null || Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`Prism did not start:\n${output}`);
    }
    await delay(100);
  }
  return {
    url: `http://127.0.0.1:${port}`,
    async stop() {
      child.kill('SIGTERM');
      await exited;
    },
  } satisfies PrismProxy;
}

/** Prism's own answer to a request or response that breaks the document (with `errors`). */
export const isPrismProblem = (response: Response) =>
  response.headers.get('content-type')?.startsWith('application/problem+json') ?? false;

/** The violations Prism found in the response (not the request), from `sl-violations`. */
export function responseViolations(response: Response): unknown[] {
  const header = response.headers.get('sl-violations');
  if (header === null) return [];
  return (JSON.parse(header) as { location?: string[] }[]).filter(
    (violation) => violation.location?.[0] === 'response',
  );
}
