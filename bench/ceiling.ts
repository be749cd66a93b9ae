import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { fileURLToPath, pathToFileURL } from 'node:url';

const SCRIPT = fileURLToPath(new URL('./ceiling-server.ts', import.meta.url));
const TSX = pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href;

export interface Ceiling {
  url: string;
  stop(): void;
}

/**
 * Starts bench/ceiling-server.ts answering the body in `bodyPath`, on the Node.js binary `node`;
 * it ends with this process (its stdin closes).
 */
export function startCeiling(bodyPath: string, node = process.execPath): Promise<Ceiling> {
  const child = spawn(node, ['--import', TSX, SCRIPT, bodyPath], { stdio: ['pipe', 'pipe', 'inherit'] });
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', (code) => reject(new Error(`The ceiling server exited (${code}) before it listened.`)));
    child.stdout
      .setEncoding('utf8')
      .once('data', (port: string) =>
        resolve({ url: `http://127.0.0.1:${port.trim()}`, stop: () => void child.kill() }),
      );
  });
}
