import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AdminKeyFileError, createAdminKeyFile, readAdminKeyFile } from './admin-key-file';

describe('admin key file', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'admin-key-'));
  });
  afterEach(async () => rm(dir, { recursive: true, force: true }));

  it('is absent before the first start', async () => {
    expect(await readAdminKeyFile(join(dir, 'admin.key'))).toBeNull();
  });

  it('is created with mode 0600, a strong random password, in a missing directory', async () => {
    const path = join(dir, 'nested', 'admin.key');
    const created = await createAdminKeyFile(path, 'admin@example.com');
    expect((await stat(path)).mode & 0o777).toBe(0o600);
    expect(created.password.length).toBeGreaterThanOrEqual(32);
    expect(await readAdminKeyFile(path)).toEqual(created);
    expect((await createAdminKeyFile(join(dir, 'other.key'), 'admin@example.com')).password).not.toBe(created.password);
  });

  it('refuses a malformed file with a message naming its path, and leaves it untouched', async () => {
    const path = join(dir, 'admin.key');
    for (const content of ['{not json', '[]', '{"email": "a@b.io"}', '{"email": 1, "password": "x"}']) {
      await writeFile(path, content);
      const error = await readAdminKeyFile(path).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(AdminKeyFileError);
      expect((error as Error).message).toContain(path);
      expect(await readFile(path, 'utf8')).toBe(content);
    }
  });
});
