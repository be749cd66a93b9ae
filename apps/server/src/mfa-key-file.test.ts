import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { mfaKeysFrom } from './mfa-key-file';

describe('MFA keys', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'mfa-key-'));
  });
  afterEach(async () => rm(dir, { recursive: true, force: true }));

  it('without MFA_ENCRYPTION_KEY, creates mfa.key beside the admin key file (mode 0600) once, and reads it back', async () => {
    const adminKeyPath = join(dir, 'nested', 'admin.key');
    const [created] = await mfaKeysFrom([], adminKeyPath)();
    const path = join(dir, 'nested', 'mfa.key');
    expect((await stat(path)).mode & 0o777).toBe(0o600);
    expect(created).toHaveLength(32);
    expect((await readFile(path, 'utf8')).trim()).toBe(created!.toString('base64url'));
    expect(await mfaKeysFrom([], adminKeyPath)()).toEqual([created]);
  });

  it('two starts racing for the file agree on one key', async () => {
    const adminKeyPath = join(dir, 'admin.key');
    const keys = await Promise.all(Array.from({ length: 8 }, () => mfaKeysFrom([], adminKeyPath)()));
    expect(new Set(keys.map(([key]) => key!.toString('hex'))).size).toBe(1);
  });

  it('with MFA_ENCRYPTION_KEY, uses its keys in order and writes no file', async () => {
    const [first, second] = [Buffer.alloc(32, 1), Buffer.alloc(32, 2)];
    const keys = await mfaKeysFrom(
      [first.toString('base64url'), second.toString('base64url')],
      join(dir, 'admin.key'),
    )();
    expect(keys).toEqual([first, second]);
    await expect(stat(join(dir, 'mfa.key'))).rejects.toThrow(/ENOENT/);
  });

  it('stops the start on a damaged key file rather than making a new key', async () => {
    await writeFile(join(dir, 'mfa.key'), 'not a key');
    await expect(mfaKeysFrom([], join(dir, 'admin.key'))()).rejects.toThrow(/mfa.key must hold 32 bytes/);
  });
});
