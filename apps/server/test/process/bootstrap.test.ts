import { existsSync } from 'node:fs';
import { readFile, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AdminCredentials } from '@uas/domain';
import { queryTestDatabase } from '@uas/adapters-persistence/testing';
import { adminLogin, createUser, listUserEmails, loginAsAdmin, readAdminKeyFile } from '../support/admin-api';
import { ServerProcesses, type ServerProcess } from '../../../../scripts/release-process';

/**
 * One SQLite database and one key file, through a first start, two restarts and a restart after
 * the key file was edited: the tests run in order, each on the state the previous one left.
 */
describe('the service on SQLite across restarts', { timeout: 60_000 }, () => {
  const servers = new ServerProcesses();
  const started: ServerProcess[] = [];
  let databasePath: string;
  let keyPath: string;
  let env: Record<string, string>;
  let admin: AdminCredentials;
  const passwords: string[] = ['kept-password'];

  beforeAll(async () => {
    const dir = await servers.tempDir();
    databasePath = join(dir, 'data', 'app.db');
    keyPath = join(dir, 'secrets', 'admin.key');
    env = { DATABASE_URL: `sqlite:${databasePath}`, ADMIN_KEY_PATH: keyPath, ADMIN_EMAIL: 'owner@example.com' };
  });
  afterAll(() => servers.cleanup());

  const run = <T>(fn: (server: ServerProcess) => Promise<T>) =>
    servers.with(env, {}, (server) => {
      started.push(server);
      return fn(server);
    });
  const migrations = () =>
    queryTestDatabase({ url: env.DATABASE_URL! }, 'select hash, created_at from __drizzle_migrations order by id');

  it('first start creates the database and a 0600 key file with a strong random password the admin logs in with', async () => {
    expect(existsSync(databasePath)).toBe(false);
    await run(async (server) => {
      expect(existsSync(databasePath)).toBe(true);
      expect((await stat(keyPath)).mode & 0o777).toBe(0o600);
      admin = await readAdminKeyFile(keyPath);
      expect(Object.keys(admin).sort()).toEqual(['email', 'password']);
      expect(admin.email).toBe('owner@example.com');
      // Strong: long, and random rather than a pattern (at least 12 different characters).
      expect(admin.password.length).toBeGreaterThanOrEqual(22);
      expect(new Set(admin.password).size).toBeGreaterThanOrEqual(12);
      passwords.push(admin.password);

      const session = await loginAsAdmin(server, admin);
      expect(
        (await createUser(server, session.accessToken, { email: 'kept@example.com', password: 'kept-password' }))
          .status,
      ).toBe(201);
    });
    expect(await migrations()).not.toHaveLength(0);
  });

  it('a restart applies no migration and loses nothing: the user and the key file are as they were', async () => {
    const migrationsBefore = await migrations();
    const keyFileBefore = await readFile(keyPath);
    const { mtimeMs } = await stat(keyPath);

    await run(async (server) => {
      const session = await loginAsAdmin(server, admin);
      expect((await listUserEmails(server, session.accessToken)).emails).toEqual(['kept@example.com']);
    });

    expect(await migrations()).toEqual(migrationsBefore);
    expect(await readFile(keyPath)).toEqual(keyFileBefore);
    expect((await stat(keyPath)).mtimeMs).toBe(mtimeMs);
  });

  it('a restart on a key file unchanged for a while remembers its stamp (no content), and needs it to match to skip the check', async () => {
    // A file changed within the last 2 s is not stamped, as a further change could keep its times.
    const settled = Number((await stat(keyPath)).ctimeMs) + 2_100 - Date.now();
    if (settled > 0) await new Promise((resolve) => setTimeout(resolve, settled));
    await run(async (server) => {
      expect((await loginAsAdmin(server, admin)).accessToken).toEqual(expect.any(String));
    });
    const [row] = await queryTestDatabase<{ key_file_stamp: string | null }>(
      { url: env.DATABASE_URL! },
      'select key_file_stamp from admins',
    );
    expect(row?.key_file_stamp).toMatch(/^\d+:\d+:\d+:\d+$/);
    expect(row?.key_file_stamp).not.toContain(admin.password);
  });

  it("an edited key file resets the admin's email and password at the next start", async () => {
    const edited = { email: 'Root@Example.org', password: 'a new password, 2nd edition' };
    const text = `${JSON.stringify(edited)}\n`;
    await writeFile(keyPath, text);
    passwords.push(edited.password);

    await run(async (server) => {
      expect((await adminLogin(server, admin)).status).toBe(401);
      expect((await adminLogin(server, { email: edited.email, password: admin.password })).status).toBe(401);
      expect((await adminLogin(server, { email: admin.email, password: edited.password })).status).toBe(401);
      const session = await loginAsAdmin(server, edited);
      expect((await listUserEmails(server, session.accessToken)).emails).toEqual(['kept@example.com']);
    });

    expect(await readFile(keyPath, 'utf8')).toBe(text); // read, never rewritten
    admin = edited;
  });

  it('wrote only JSON log lines to stdout, nothing to stderr, and never a password', () => {
    expect(started).toHaveLength(4);
    for (const server of started) {
      expect(server.stderr).toBe('');
      const lines = server.logLines();
      expect(lines.map((line) => line.msg)).toEqual(expect.arrayContaining(['listening', 'stopped']));
      for (const line of lines)
        expect(line).toMatchObject({ time: expect.any(String), level: expect.any(String), msg: expect.any(String) });
      for (const password of passwords) expect(server.stdout).not.toContain(password);
    }
  });
});
