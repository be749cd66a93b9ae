import { existsSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loginAsAdmin, readAdminKeyFile } from '../support/admin-api';
import { freePort, ServerProcesses } from '../../../../scripts/release-process';

describe('configuration from a .env file', { timeout: 60_000 }, () => {
  const servers = new ServerProcesses();
  afterAll(() => servers.cleanup());

  it('is read from the working directory, the real environment wins over it, and the defaults put the data under ./data', async () => {
    const cwd = await servers.tempDir();
    const port = await freePort();
    await writeFile(join(cwd, '.env'), `PORT=${port}\nADMIN_EMAIL=from-dotenv@example.com\nLOG_LEVEL=warn\n`);

    await servers.with({ LOG_LEVEL: 'info' }, { cwd, port }, async (server) => {
      expect(existsSync(join(cwd, 'data', 'app.db'))).toBe(true);
      const admin = await readAdminKeyFile(join(cwd, 'data', 'admin.key'));
      expect(admin.email).toBe('from-dotenv@example.com');
      await loginAsAdmin(server, admin);
      expect(server.logLines().map((line) => line.msg)).toContain('listening'); // info, from the environment
    });
  });
});
