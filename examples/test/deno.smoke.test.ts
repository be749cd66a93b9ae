import { spawn, type ChildProcess } from 'node:child_process';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, it } from 'vitest';
import { signUpLogInReadMe } from './account-flow.ts';

const deno = join(dirname(createRequire(import.meta.url).resolve('deno/package.json')), 'deno');
const examples = fileURLToPath(new URL('..', import.meta.url));
let server: ChildProcess;
let url: string;

beforeAll(async () => {
  // As the README runs it: only the network of 127.0.0.1 and two variables are allowed.
  server = spawn(deno, ['run', '--allow-net=127.0.0.1', '--allow-env=PORT,TOKEN_SECRET', 'deno/main.ts'], {
    cwd: examples,
    env: { PATH: process.env.PATH ?? '', PORT: '0', NO_COLOR: '1' },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  url = await new Promise<string>((resolve, reject) => {
    let output = '';
    server.stdout?.on('data', (chunk: Buffer) => {
      output += chunk;
      const listening = /listening on (http:\/\/\S+)/.exec(output);
      if (listening?.[1]) resolve(listening[1]);
    });
    server.once('exit', (code) => reject(new Error(`deno exited with ${code}: ${output}`)));
  });
}, 60_000);

afterAll(() => {
  server?.kill();
});

it('the Deno script, from the built package, signs a user up, logs them in and answers /me', () =>
  signUpLogInReadMe(url));
