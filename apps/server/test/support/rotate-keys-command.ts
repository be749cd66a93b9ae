import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const SERVER_DIR = fileURLToPath(new URL('../..', import.meta.url));

/**
 * Runs the real `pnpm rotate-keys` program (`node --import tsx src/rotate-keys.ts`) in a process
 * of its own, configured by `env` alone, and returns what it printed and the new key's id.
 */
export async function runRotateKeys(env: Record<string, string>): Promise<{ kid: string; stdout: string }> {
  const { stdout } = await promisify(execFile)(process.execPath, ['--import', 'tsx', 'src/rotate-keys.ts'], {
    cwd: SERVER_DIR,
    env: { PATH: process.env.PATH ?? '', ...env },
    timeout: 30_000,
  });
  const kid = /^New signing key (\S+) /.exec(stdout)?.[1];
  if (!kid) throw new Error(`rotate-keys printed no key id: ${stdout}`);
  return { kid, stdout };
}
