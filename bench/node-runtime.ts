import { spawnSync } from 'node:child_process';
import { cp, rm } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { RELEASE_DIR } from '../scripts/release-process';
import { nodeHeadersFor } from '../scripts/native-modules';

/** A Node.js binary and a release folder whose native packages were built for it. */
export interface NodeRuntime {
  node: string;
  version: string;
  releaseDir: string;
}

/** The Node.js running the benchmark, with the release `pnpm build` just made for it. */
export const currentRuntime = (): NodeRuntime => ({
  node: process.execPath,
  version: process.version,
  releaseDir: RELEASE_DIR,
});

/**
 * A copy of the release in `directory` for another Node.js binary: its native packages installed
 * afresh from the npm registry and built for that Node.js (`npm install` run by it, against its
 * own headers), as docs/operations.md tells an operator to do with a release moved to another Node.js.
 */
export async function runtimeFor(nodeBinary: string, directory: string): Promise<NodeRuntime> {
  const node = resolve(nodeBinary);
  const probe = spawnSync(node, ['-p', 'process.version'], { encoding: 'utf8' });
  if (probe.status !== 0) throw new Error(`${node} is not a working Node.js binary: ${probe.stderr.trim()}`);
  const version = probe.stdout.trim();
  const releaseDir = join(directory, `release-${version}`);
  await cp(RELEASE_DIR, releaseDir, { recursive: true });
  await rm(join(releaseDir, 'node_modules'), { recursive: true, force: true });
  const headers = nodeHeadersFor(node, version);
  const install = spawnSync('npm', ['install', '--omit=dev', '--no-audit', '--no-fund', '--no-package-lock'], {
    cwd: releaseDir,
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
    // npm's own script runs on the first `node` on PATH: the one the release is built for.
    env: {
      ...process.env,
      PATH: `${dirname(node)}:${process.env.PATH ?? ''}`,
      ...(headers ? { npm_config_nodedir: headers } : {}),
    },
  });
  if (install.status !== 0)
    throw new Error(`npm install for ${version} failed:\n${`${install.stdout}${install.stderr}`.slice(-2000)}`);
  return { node, version, releaseDir };
}
