import { connect } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ErrorDocument } from '@uas/client';
import { delay, ServerProcesses, type ServerProcess } from '../../../../scripts/release-process';

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
  const headers = Object.fromEntries(
    headerLines.map((line) => line.split(/:\s*/, 2).map((part, i) => (i ? part : part.toLowerCase()))),
  );
  return {
    status: Number(statusLine.split(' ')[1]),
    headers,
    body: JSON.parse(body) as ErrorDocument,
  };
}

function expectJsonApiError(answer: string, status: number, code: string) {
  const parsed = parse(answer);
  expect(parsed.status, answer).toBe(status);
  expect(parsed.headers['content-type']).toMatch(/^application\/json/);
  expect(parsed.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
  expect(parsed.body.errors).toEqual([expect.objectContaining({ status: String(status), code })]);
  return parsed;
}

const TWO_MB = 2 * 1024 * 1024;
const CHUNK = 64 * 1024;

/**
 * POSTs `TWO_MB` of JSON in 64 KiB writes, each after the previous one was flushed, as a client
 * streaming an upload does, then reads the answer: what it got, or the error that ended it.
 */
function streamLargeBody(port: number, path: string, framing: 'content-length' | 'chunked'): Promise<string> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    let answer = '';
    socket.setEncoding('utf8').on('data', (chunk: string) => void (answer += chunk));
    socket.on('error', (error: NodeJS.ErrnoException) => resolve(`${error.code}: ${answer}`));
    socket.on('end', () => resolve(answer));
    socket.once('connect', async () => {
      const length = framing === 'content-length' ? `Content-Length: ${TWO_MB}` : 'Transfer-Encoding: chunked';
      socket.write(`POST ${path} HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n${length}\r\n\r\n`);
      const chunk = Buffer.alloc(CHUNK, 'a');
      for (let sent = 0; sent < TWO_MB && !socket.destroyed; sent += CHUNK) {
        const frame =
          framing === 'chunked'
            ? Buffer.concat([Buffer.from(`${CHUNK.toString(16)}\r\n`), chunk, Buffer.from('\r\n')])
            : chunk;
        if (!socket.write(frame)) await new Promise((drained) => socket.once('drain', drained));
      }
      if (!socket.destroyed) socket.write(framing === 'chunked' ? '0\r\n\r\n' : '');
    });
  });
}

describe('requests refused before routing, and bodies refused for their size', { timeout: 90_000 }, () => {
  const servers = new ServerProcesses();
  let server: ServerProcess;
  beforeAll(async () => {
    const dir = await servers.tempDir();
    server = await servers.start({
      DATABASE_URL: `sqlite:${join(dir, 'app.db')}`,
      ADMIN_KEY_PATH: join(dir, 'admin.key'),
    });
  });
  afterAll(() => servers.cleanup());

  it.each([
    [400, 'malformed_request', 'an unknown method', 'FOO /health HTTP/1.1\r\nHost: x\r\n\r\n'],
    [
      431,
      'headers_too_large',
      'a request line over the header limit',
      `GET /v1/admin/users?q=${'a'.repeat(70_000)} HTTP/1.1\r\nHost: x\r\n\r\n`,
    ],
    [400, 'malformed_request', 'a backslash path', 'GET /v1/admin/users\\..\\ HTTP/1.1\r\nHost: x\r\n\r\n'],
    [
      400,
      'malformed_request',
      'a backslash path on a write',
      'POST /v1/admin/users\\..\\ HTTP/1.1\r\nHost: x\r\nContent-Length: 0\r\n\r\n',
    ],
    [
      417,
      'expectation_failed',
      'an Expect other than 100-continue',
      'POST /v1/admin/users HTTP/1.1\r\nHost: x\r\nExpect: 200-ok\r\nContent-Length: 2\r\n\r\n',
    ],
  ])('answer %i %s to %s, as JSON:API with a request id, and close', async (status, code, _, request) => {
    const answer = expectJsonApiError(await rawRequest(server.port, request), status, code);
    expect(answer.headers.connection).toBe('close');
    expect((await server.fetch('/health')).status).toBe(200);
  });

  it.each([
    ['/v1/admin/users', 'content-length'],
    ['/v1/refresh', 'content-length'],
    ['/v1/admin/users', 'chunked'],
  ] as const)(
    'a 2 MB body written in 64 KiB chunks to %s (%s) gets the 413, 10 times of 10: read and discarded, not cut off',
    async (path, framing) => {
      for (let attempt = 0; attempt < 10; attempt++) {
        const answer = await streamLargeBody(server.port, path, framing);
        const parsed = expectJsonApiError(answer, 413, 'payload_too_large');
        expect(parsed.headers.connection).toBe('close');
      }
      expect((await server.fetch('/health')).status).toBe(200);
    },
  );

  it('a body far over the discard bound is refused without being read: the connection closes', async () => {
    const answer = await rawRequest(
      server.port,
      `POST /v1/admin/users HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ${1024 ** 3}\r\n\r\n{`,
    );
    expectJsonApiError(answer, 413, 'payload_too_large');
  });
});

describe('HTTP timeouts', { timeout: 60_000 }, () => {
  const servers = new ServerProcesses();
  afterAll(() => servers.cleanup());

  it('a client trickling header bytes is answered 408 and cut off at the headers timeout, not a minute later', async () => {
    const dir = await servers.tempDir();
    const server = await servers.start({
      DATABASE_URL: `sqlite:${join(dir, 'app.db')}`,
      ADMIN_KEY_PATH: join(dir, 'admin.key'),
      HTTP_HEADERS_TIMEOUT_SECONDS: '2',
      HTTP_REQUEST_TIMEOUT_SECONDS: '5',
    });
    const socket = connect(server.port, '127.0.0.1');
    let answer = '';
    socket.setEncoding('utf8').on('data', (chunk: string) => void (answer += chunk));
    const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
    socket.on('error', () => {});
    const started = Date.now();
    socket.write('GET /health HTTP/1.1\r\nX-Slow: ');
    const trickle = setInterval(() => socket.writable && socket.write('a'), 300);
    await closed;
    clearInterval(trickle);
    const elapsed = Date.now() - started;
    expect(elapsed).toBeGreaterThanOrEqual(2_000);
    expect(elapsed).toBeLessThan(4_500); // checked every second, not every 30 s
    expectJsonApiError(answer, 408, 'request_timeout');
  });

  it('keeps an idle keep-alive connection for HTTP_KEEP_ALIVE_TIMEOUT_SECONDS, says so, and then closes it', async () => {
    const dir = await servers.tempDir();
    const server = await servers.start({
      DATABASE_URL: `sqlite:${join(dir, 'app.db')}`,
      ADMIN_KEY_PATH: join(dir, 'admin.key'),
      HTTP_KEEP_ALIVE_TIMEOUT_SECONDS: '2',
    });
    const socket = connect(server.port, '127.0.0.1');
    let answer = '';
    socket.setEncoding('utf8').on('data', (chunk: string) => void (answer += chunk));
    const closed = new Promise<number>((resolve) => socket.once('close', () => resolve(Date.now())));
    socket.write('GET /health HTTP/1.1\r\nHost: x\r\n\r\n');
    while (!answer.includes('{"status":"ok"}')) await delay(10);
    const answeredAt = Date.now();
    expect(answer.toLowerCase()).toContain('keep-alive: timeout=2');
    const idle = (await closed) - answeredAt;
    expect(idle).toBeGreaterThanOrEqual(1_900);
    expect(idle).toBeLessThan(4_000);
  });
});
