import { connect } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ServerProcesses, type ServerProcess } from '../support/server-process';

/** Sends raw bytes and reads the whole answer: fetch cannot send a request Node would refuse. */
function rawRequest(port: number, request: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => socket.end(request));
    let answer = '';
    socket.setEncoding('utf8').on('data', (chunk: string) => void (answer += chunk));
    socket.on('end', () => resolve(answer)).on('error', reject);
  });
}

function parse(answer: string) {
  const [head = '', body = ''] = answer.split('\r\n\r\n');
  const [statusLine = '', ...headerLines] = head.split('\r\n');
  const headers = Object.fromEntries(headerLines.map((line) => line.split(/:\s*/, 2).map((part, i) => (i ? part : part.toLowerCase()))));
  return { status: Number(statusLine.split(' ')[1]), headers, body: JSON.parse(body) as { errors: { status: string; code: string }[] } };
}

describe('requests Node refuses before the app sees them', { timeout: 60_000 }, () => {
  const servers = new ServerProcesses();
  let server: ServerProcess;
  beforeAll(async () => {
    const dir = await servers.tempDir();
    server = await servers.start({ DATABASE_URL: `sqlite:${join(dir, 'app.db')}`, ADMIN_KEY_PATH: join(dir, 'admin.key') });
  });
  afterAll(() => servers.cleanup());

  it.each([
    [400, 'malformed_request', 'an unknown method', 'FOO /health HTTP/1.1\r\nHost: x\r\n\r\n'],
    [431, 'headers_too_large', 'a request line over the header limit', `GET /v1/admin/users?q=${'a'.repeat(70_000)} HTTP/1.1\r\nHost: x\r\n\r\n`],
  ])('answer %i %s to %s, as JSON with a request id', async (status, code, _, request) => {
    const answer = parse(await rawRequest(server.port, request));
    expect(answer.status).toBe(status);
    expect(answer.headers['content-type']).toBe('application/json');
    expect(answer.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    expect(answer.body.errors).toEqual([expect.objectContaining({ status: String(status), code })]);
    expect((await server.fetch('/health')).status).toBe(200);
  });
});
