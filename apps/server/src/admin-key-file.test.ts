import { copyFile, mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
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
    expect((await readAdminKeyFile(path))?.credentials).toEqual(created);
    expect((await createAdminKeyFile(join(dir, 'other.key'), 'admin@example.com')).password).not.toBe(created.password);
  });

  describe('stamp', () => {
    const later = () => Date.now() + 5_000;
    // Linux stamps file times from a clock that ticks every 1–10 ms: changes a tick apart.
    const nextTick = () => new Promise((resolve) => setTimeout(resolve, 20));

    it('is the same on every read of an unchanged file, and holds nothing of its content', async () => {
      const path = join(dir, 'admin.key');
      const { password } = await createAdminKeyFile(path, 'admin@example.com');
      const first = await readAdminKeyFile(path, later());
      expect(first?.stamp).toEqual(expect.any(String));
      expect((await readAdminKeyFile(path, later()))?.stamp).toBe(first?.stamp);
      expect(first?.stamp).not.toContain(password);
      expect(first?.stamp).not.toContain('admin@example.com');
    });

    it('changes when the file is rewritten, even with the same content, or replaced by a copy', async () => {
      const path = join(dir, 'admin.key');
      await createAdminKeyFile(path, 'admin@example.com');
      const content = await readFile(path, 'utf8');
      const before = (await readAdminKeyFile(path, later()))?.stamp;
      await nextTick();
      await writeFile(path, content);
      const rewritten = (await readAdminKeyFile(path, later()))?.stamp;
      expect(rewritten).not.toBe(before);
      const copy = join(dir, 'copy.key');
      await writeFile(copy, content);
      await nextTick();
      await copyFile(copy, path);
      expect((await readAdminKeyFile(path, later()))?.stamp).not.toBe(rewritten);
    });

    it('is null while the file has just changed, as a further change could keep its times', async () => {
      const path = join(dir, 'admin.key');
      await createAdminKeyFile(path, 'admin@example.com');
      expect((await readAdminKeyFile(path))?.stamp).toBeNull();
    });
  });

  it("is created even where a crash left a temporary file behind (a container's node is always PID 1)", async () => {
    const path = join(dir, 'admin.key');
    await writeFile(`${path}.${process.pid}.tmp`, '{"email":"half');
    const created = await createAdminKeyFile(path, 'admin@example.com');
    expect((await readAdminKeyFile(path))?.credentials).toEqual(created);
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
