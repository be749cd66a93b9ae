import { Agent, request } from 'node:http';
import { connect } from 'node:net';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { AdminCredentials } from '@uas/domain';
import { loginDocument } from '@uas/adapters-http/testing';
import { ServerProcesses, type ServerProcess } from '../../../../scripts/release-process';
import { readAdminKeyFile } from '../support/admin-api';

/** Logins at bcrypt cost 12 take a few hundred milliseconds each on two cores: real work to wait for. */
const LOGINS = 6;

/**
 * A login the server has provably begun: its headers carry `Expect: 100-continue`, so `begun`
 * resolves when the server has read them and answered "100 Continue" (a request the server has
 * not read yet is not in flight; it may still sit in the kernel's queue). `finish()` sends the
 * body; `response` resolves with the whole response.
 */
function beginLogin(server: ServerProcess, agent: Agent, credentials: AdminCredentials) {
  const body = JSON.stringify(loginDocument(credentials.email, credentials.password));
  let begun!: () => void;
  const started = new Promise<void>((resolve) => (begun = resolve));
  const req = request({
    host: '127.0.0.1',
    port: server.port,
    path: '/v1/admin/login',
    method: 'POST',
    agent,
    timeout: 20_000,
    headers: { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(body), Expect: '100-continue' },
  });
  const response = new Promise<{ status: number; connection: string | undefined; body: string }>((resolve, reject) => {
    req.on('response', (res) => {
      let text = '';
      res.setEncoding('utf8').on('data', (chunk: string) => (text += chunk));
      res
        .on('end', () => resolve({ status: res.statusCode ?? 0, connection: res.headers.connection, body: text }))
        .on('error', reject);
    });
    req.on('error', reject).on('timeout', () => req.destroy(new Error('no response within 20 s')));
  });
  response.catch(() => {}); // awaited by the test; never an unhandled rejection if the test fails first
  req.on('continue', () => begun());
  req.flushHeaders();
  return { started, response, finish: () => req.end(body) };
}

function connectionRefused(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(false);
    });
    socket.once('error', (error: NodeJS.ErrnoException) => resolve(error.code === 'ECONNREFUSED'));
  });
}

describe('graceful stop', { timeout: 60_000 }, () => {
  const servers = new ServerProcesses();
  afterAll(() => servers.cleanup());

  it('on SIGTERM refuses new connections, completes every request in flight, then exits 0', async () => {
    const dir = await servers.tempDir();
    const env = {
      DATABASE_URL: `sqlite:${join(dir, 'app.db')}`,
      ADMIN_KEY_PATH: join(dir, 'admin.key'),
      BCRYPT_COST: '12',
    };
    const server = await servers.start(env);
    const admin = await readAdminKeyFile(env.ADMIN_KEY_PATH);
    const agent = new Agent({ keepAlive: true, maxSockets: LOGINS });
    try {
      const logins = Array.from({ length: LOGINS }, () => beginLogin(server, agent, admin));
      await Promise.all(logins.map((login) => login.started));

      server.child.kill('SIGTERM');
      await server.waitForOutput('"msg":"stopping: finishing in-flight requests"');
      expect(await connectionRefused(server.port)).toBe(true);

      for (const login of logins) login.finish();
      const responses = await Promise.all(logins.map((login) => login.response));
      const lastResponseAt = Date.now();
      for (const response of responses) {
        expect(response.status).toBe(200);
        expect(response.connection).toBe('close'); // a keep-alive connection must not hold the stop
        expect(JSON.parse(response.body)).toMatchObject({ data: { attributes: { access_token: expect.any(String) } } });
      }

      expect(await server.exited).toEqual({ code: 0, signal: null });
      expect(Date.now() - lastResponseAt).toBeLessThan(3_000);
      expect(server.logLines().filter((line) => line.path === '/v1/admin/login')).toHaveLength(LOGINS);
      expect(server.logLines().at(-1)).toMatchObject({ msg: 'stopped' });
    } finally {
      agent.destroy();
    }
  });
});
