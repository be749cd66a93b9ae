import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { releaseCommand } from '../../../../scripts/release-process';

/**
 * Runs the release's rotate-keys program (`node <release>/rotate-keys.mjs [args]`) in a process
 * of its own, configured by `env` alone, and returns what it printed and the new key's id.
 */
export async function runRotateKeys(
  env: Record<string, string>,
  args: readonly string[] = [],
): Promise<{ kid: string; stdout: string }> {
  const { stdout } = await promisify(execFile)(process.execPath, releaseCommand('rotate-keys', args), {
    env: { PATH: process.env.PATH ?? '', ...env },
    timeout: 30_000,
  });
  const kid = /^New signing key (\S+) /.exec(stdout)?.[1];
  if (!kid) throw new Error(`rotate-keys printed no key id: ${stdout}`);
  return { kid, stdout };
}
