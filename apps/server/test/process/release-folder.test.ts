import { execFile, spawn } from 'node:child_process';
import { cp, readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { delay, freePort, RELEASE_DIR, ServerProcess, ServerProcesses } from '../../../../scripts/release-process';
import { NATIVE, OPTIONAL_NATIVE, RELEASE_NATIVE } from '../../../../scripts/native-modules';

const isOptional = (name: string) => (OPTIONAL_NATIVE as readonly string[]).includes(name);

/**
 * The release folder is all production needs: copied away from the repository (so nothing can be
 * found in the workspace's node_modules), it starts with plain node, migrates its database,
 * serves the panel, and its other programs run too.
 */
describe('the release folder, on its own', { timeout: 60_000 }, () => {
  const servers = new ServerProcesses();
  afterAll(() => servers.cleanup());

  it('names only native packages in its package.json, and ships them, the migrations and the panel', async () => {
    const manifest = JSON.parse(await readFile(join(RELEASE_DIR, 'package.json'), 'utf8')) as {
      dependencies: Record<string, string>;
      optionalDependencies: Record<string, string>;
      type: string;
    };
    expect(Object.keys(manifest.dependencies).sort()).toEqual(NATIVE.filter((name) => !isOptional(name)).sort());
    expect(Object.keys(manifest.optionalDependencies)).toEqual([...OPTIONAL_NATIVE]);
    // Node.js 20's driver only in a release built with Node.js 20, where it is compiled for it.
    const shipped = await readdir(join(RELEASE_DIR, 'node_modules'), { recursive: true });
    expect(shipped.filter((path) => (NATIVE as readonly string[]).includes(path)).sort()).toEqual(
      [...RELEASE_NATIVE].sort(),
    );
    expect(manifest.type).toBe('module');
    const entries = await readdir(RELEASE_DIR);
    expect(entries).toEqual(
      expect.arrayContaining([
        'server.mjs',
        'rotate-keys.mjs',
        'uas.mjs',
        'migrations',
        'admin-panel',
        'node_modules',
        'package.json',
      ]),
    );
    expect(await readdir(join(RELEASE_DIR, 'migrations'))).toEqual(expect.arrayContaining(['sqlite', 'postgres']));
  });

  it('copied elsewhere, starts with `node server.mjs`, is ready, serves the panel, and rotate-keys runs', async () => {
    const copy = await servers.tempDir();
    await cp(RELEASE_DIR, copy, { recursive: true });
    const data = await servers.tempDir();
    const port = await freePort();
    const env = {
      PATH: process.env.PATH ?? '',
      HOST: '127.0.0.1',
      PORT: String(port),
      BCRYPT_COST: '4',
      DATABASE_URL: `sqlite:${join(data, 'app.db')}`,
      ADMIN_KEY_PATH: join(data, 'admin.key'),
    };
    const server = new ServerProcess(
      spawn(process.execPath, ['server.mjs'], { cwd: copy, env, stdio: ['pipe', 'pipe', 'pipe'] }),
      port,
    );
    try {
      let status = 0;
      for (let tries = 0; tries < 300 && status !== 200 && server.running; tries++) {
        status = await fetch(`${server.url}/ready`).then(
          (r) => r.status,
          () => 0,
        );
        if (status !== 200) await delay(50);
      }
      expect(status, server.describe()).toBe(200);
      const panel = await fetch(`${server.url}/admin/`);
      expect(panel.status).toBe(200);
      expect(await panel.text()).toContain('<script type="module"');

      const { stdout } = await promisify(execFile)(process.execPath, ['rotate-keys.mjs'], {
        cwd: copy,
        env,
        timeout: 30_000,
      });
      expect(stdout).toMatch(/^New signing key \S+ /);
    } finally {
      expect(await server.stop()).toEqual({ code: 0, signal: null });
    }
  });
});
