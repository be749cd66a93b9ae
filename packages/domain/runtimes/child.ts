import { spawn, type SpawnOptions } from 'node:child_process';
import type { Readable } from 'node:stream';

/** Each runtime gets this long for the whole suite; a hung runtime fails the run instead of stalling CI. */
export const RUNTIME_TIMEOUT_MS = 120_000;

export interface Finished {
  code: number | null;
  output: string;
}

/** Runs a command to its end (or kills it at the time limit), keeping stdout and stderr together. */
export function run(command: string, args: string[], options: SpawnOptions = {}): Promise<Finished> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'], ...options });
    let output = '';
    for (const stream of [child.stdout, child.stderr] as Readable[])
      stream.on('data', (chunk: Buffer) => (output += chunk));
    const timer = setTimeout(() => {
      output += `\n(killed after ${RUNTIME_TIMEOUT_MS / 1000} s)`;
      child.kill('SIGKILL');
    }, RUNTIME_TIMEOUT_MS);
    child.once('error', reject);
    child.once('close', (code) => {
      clearTimeout(timer);
      resolve({ code, output });
    });
  });
}
