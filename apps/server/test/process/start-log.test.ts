import { afterAll, describe, expect, it } from 'vitest';
import { ServerProcesses } from '../../../../scripts/release-process';

describe('the start log line', { timeout: 60_000 }, () => {
  const servers = new ServerProcesses();
  afterAll(() => servers.cleanup());

  it.each([
    ['0.0.0.0', 'localhost'],
    ['::', 'localhost'],
    ['127.0.0.1', '127.0.0.1'],
  ])('on HOST=%s names the service, the panel and the docs at http://%s:PORT', async (host, shown) => {
    const dir = await servers.tempDir();
    await servers.with(
      { HOST: host, DATABASE_URL: `sqlite:${dir}/app.db`, ADMIN_KEY_PATH: `${dir}/admin.key` },
      {},
      async (server) => {
        const url = `http://${shown}:${server.port}`;
        expect(server.logLines().find((line) => line.msg === 'listening')).toMatchObject({
          url,
          panel: `${url}/admin/`,
          docs: `${url}/docs`,
        });
        // What the line names is served there.
        for (const path of ['/admin/', '/docs']) expect((await server.fetch(path)).status).toBe(200);
      },
    );
  });
});
