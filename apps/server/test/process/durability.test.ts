import { open, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createUser, listUserEmails, loginAsAdmin, readAdminKeyFile } from '../support/admin-api';
import { ServerProcesses } from '../../../../scripts/release-process';

const USERS = 60;
const CONCURRENCY = 6;

/** Byte 18 of an SQLite file's header, the write version: 2 once the file is in WAL mode. */
async function sqliteWriteVersion(path: string): Promise<number> {
  const file = await open(path);
  try {
    const { buffer } = await file.read({ buffer: Buffer.alloc(1), position: 18 });
    return buffer[0]!;
  } finally {
    await file.close();
  }
}

describe('durability on SQLite', { timeout: 90_000 }, () => {
  const servers = new ServerProcesses();
  afterAll(() => servers.cleanup());

  it('every create acknowledged with 201 survives kill -9 of the process', async () => {
    const dir = await servers.tempDir();
    const databasePath = join(dir, 'app.db');
    const env = { DATABASE_URL: `sqlite:${databasePath}`, ADMIN_KEY_PATH: join(dir, 'admin.key') };

    const first = await servers.start(env);
    const admin = await readAdminKeyFile(env.ADMIN_KEY_PATH);
    const { accessToken } = await loginAsAdmin(first, admin);
    const acknowledged: string[] = [];
    for (let batch = 0; batch < USERS / CONCURRENCY; batch++) {
      const emails = Array.from({ length: CONCURRENCY }, (_, i) => `durable-${batch * CONCURRENCY + i}@example.com`);
      const statuses = await Promise.all(
        emails.map((email) =>
          createUser(first, accessToken, { email, password: 'durable-password' }).then((response) => response.status),
        ),
      );
      expect(statuses).toEqual(emails.map(() => 201));
      acknowledged.push(...emails);
    }
    expect(await first.kill()).toEqual({ code: null, signal: 'SIGKILL' });
    // In WAL mode, with the acknowledged writes still in the log: the restart must recover them from it.
    expect(await sqliteWriteVersion(databasePath)).toBe(2);
    expect((await stat(`${databasePath}-wal`)).size).toBeGreaterThan(0);

    const second = await servers.start(env);
    const { emails, total } = await listUserEmails(second, (await loginAsAdmin(second, admin)).accessToken);
    expect(total).toBe(USERS);
    expect(emails.sort()).toEqual(acknowledged.sort());
  });
});
