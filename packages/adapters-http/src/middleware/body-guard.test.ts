import { connect } from 'node:net';
import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import { describe, expect, it } from 'vitest';
import { createTestApp, loginDocument } from '../testing';
import { MAX_BODY_BYTES, MAX_DISCARDED_BODY_BYTES, isJsonContentType } from './body-guard';

const login = JSON.stringify(loginDocument('nobody@example.com', 'wrong-password'));

/** POSTs a streamed JSON body, as a client still sending it would. */
function postStream(
  app: { request(path: string, init: RequestInit): Response | Promise<Response> },
  path: string,
  body: ReadableStream<Uint8Array>,
  headers: Record<string, string> = {},
): Promise<Response> {
  const init = { method: 'POST', headers: { 'Content-Type': 'application/json', ...headers }, body, duplex: 'half' };
  return Promise.resolve(app.request(path, init as RequestInit));
}

describe('request bodies', () => {
  it.each([
    ['application/json', true],
    ['application/vnd.api+json', true],
    ['application/json; charset=utf-8', true],
    ['Application/JSON;charset="UTF-8"', true],
    ['application/json; charset=latin1', false],
    ['text/plain', false],
    ['application/x-www-form-urlencoded', false],
    ['application/merge-patch+json', false],
    [undefined, false],
  ])('content type %s accepted: %s', (header, accepted) => {
    expect(isJsonContentType(header)).toBe(accepted);
  });

  it.each([
    ['text/plain', { 'Content-Type': 'text/plain' }],
    ['no content type', {}],
    ['form encoding', { 'Content-Type': 'application/x-www-form-urlencoded' }],
  ])('a body sent as %s → 415', async (_, headers) => {
    const { app } = await createTestApp();
    const response = await app.request('/v1/admin/login', { method: 'POST', headers, body: login });
    expect(response.status).toBe(415);
    expect((await response.json()).errors[0]).toMatchObject({ status: '415', code: 'unsupported_media_type' });
  });

  it('a body cut off mid-way (the client went, a broken chunked encoding) → 400, not an unexpected error', async () => {
    const { app, logger } = await createTestApp();
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(new TextEncoder().encode('{"data":'));
        controller.error(new Error('aborted'));
      },
    });
    const response = await postStream(app, '/v1/refresh', body);
    expect(response.status).toBe(400);
    expect((await response.json()).errors[0]).toMatchObject({ status: '400', code: 'malformed_request' });
    expect(logger.entries.filter((entry) => entry.level === 'error')).toEqual([]);
  });

  it('accepts application/vnd.api+json (the request reaches the domain: 401 for wrong credentials)', async () => {
    const { app } = await createTestApp();
    const response = await app.request('/v1/admin/login', {
      method: 'POST',
      headers: { 'Content-Type': 'application/vnd.api+json' },
      body: login,
    });
    expect(response.status).toBe(401);
  });

  it.each(['{"data":', '', 'not json', '{"a":1}}'])('malformed JSON %j → 400', async (body) => {
    const { app } = await createTestApp();
    const response = await app.request('/v1/admin/login', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'Content-Length': String(body.length || 1) },
      body: body || ' ',
    });
    expect(response.status).toBe(400);
    expect((await response.json()).errors[0]).toMatchObject({
      status: '400',
      code: 'malformed_json',
      title: 'Malformed JSON',
    });
  });

  it('a body over 1 MiB → 413, with or without Content-Length', async () => {
    const { app } = await createTestApp();
    const huge = JSON.stringify({ data: { type: 'users', attributes: { name: 'x'.repeat(MAX_BODY_BYTES) } } });
    const streamed = await app.request('/v1/admin/login', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: huge,
    });
    const declared = await app.request('/v1/admin/login', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'Content-Length': String(huge.length) },
      body: huge,
    });
    for (const response of [streamed, declared]) {
      expect(response.status).toBe(413);
      // The unread rest of the body makes the connection unusable: the client must not reuse it.
      expect(response.headers.get('connection')).toBe('close');
      expect((await response.json()).errors[0]).toMatchObject({ status: '413', code: 'payload_too_large' });
    }
  });

  /** A body of `total` bytes in 64 KiB chunks, counting how many the server pulled. */
  function countedBody(total: number) {
    const counter = { pulled: 0 };
    const chunk = new Uint8Array(64 * 1024).fill(0x61);
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (counter.pulled >= total) return controller.close();
        counter.pulled += chunk.byteLength;
        controller.enqueue(chunk);
      },
    });
    return { body, counter };
  }

  it('reads an oversized body to its end before the 413, so a client still writing it gets the answer', async () => {
    const { app } = await createTestApp();
    const { body, counter } = countedBody(2 * MAX_BODY_BYTES);
    const response = await postStream(app, '/v1/admin/login', body);
    expect(response.status).toBe(413);
    expect(counter.pulled).toBe(2 * MAX_BODY_BYTES);
  });

  it('stops reading past the discard bound, and refuses a declared length past it unread', async () => {
    const { app } = await createTestApp();
    const { body, counter } = countedBody(4 * MAX_DISCARDED_BODY_BYTES);
    const streamed = await postStream(app, '/v1/admin/login', body);
    expect(streamed.status).toBe(413);
    expect(counter.pulled).toBeLessThan(MAX_DISCARDED_BODY_BYTES + 256 * 1024);

    const declared = countedBody(MAX_DISCARDED_BODY_BYTES + 1);
    const response = await postStream(app, '/v1/admin/login', declared.body, {
      'Content-Length': String(MAX_DISCARDED_BODY_BYTES + 1),
    });
    expect(response.status).toBe(413);
    expect(declared.counter.pulled).toBeLessThanOrEqual(64 * 1024); // at most what the stream buffers up front
  });

  it('a body of exactly 1 MiB is read (and judged by its route)', async () => {
    const { app } = await createTestApp();
    const padding = 'x'.repeat(MAX_BODY_BYTES - JSON.stringify({ pad: '' }).length);
    const response = await app.request('/v1/admin/login', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ pad: padding }),
    });
    expect(response.status).toBe(422);
  });

  it.each(['POST', 'PATCH'])('an empty %s body declared as JSON → 400 malformed_json', async (method) => {
    const { app } = await createTestApp();
    const response = await app.request('/v1/admin/login', { method, headers: { 'Content-Type': 'application/json' } });
    expect(response.status).toBe(400);
    expect((await response.json()).errors[0]).toMatchObject({ code: 'malformed_json' });
  });

  it('a GET or DELETE declaring JSON without a body is not refused for the header', async () => {
    const { app, loginAdmin } = await createTestApp();
    const { accessToken } = await loginAdmin();
    const headers = { Authorization: `Bearer ${accessToken}`, 'Content-Type': 'application/json' };
    expect((await app.request('/v1/admin/users', { headers })).status).toBe(200);
  });

  it('a request without a body needs no content type', async () => {
    const { app, loginAdmin } = await createTestApp();
    const { accessToken, response: login } = await loginAdmin();
    const { data } = await login.json();
    const response = await app.request(`/v1/admin/logout/${data.id}`, {
      method: 'DELETE',
      headers: { Authorization: `Bearer ${accessToken}` },
    });
    expect(response.status).toBe(204);
  });

  // Served by Node, the body is read from Node's own request (see bodyReader), not through Hono's
  // fetch Request: the same answers over a real socket.
  describe('over a real socket', () => {
    /** Writes `parts` of a raw request to the app served on a loopback port; answers what comes back. */
    async function exchange(parts: string[], end: boolean) {
      const { app, logger } = await createTestApp();
      const server = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' });
      await new Promise((resolve) => server.once('listening', resolve));
      const { port } = server.address() as AddressInfo;
      try {
        const answer = await new Promise<string>((resolve, reject) => {
          const socket = connect(port, '127.0.0.1');
          let received = '';
          socket.on('data', (data) => (received += data.toString()));
          socket.on('close', () => resolve(received));
          socket.on('error', reject);
          socket.on('connect', async () => {
            for (const part of parts) {
              socket.write(part);
              await new Promise((wait) => setTimeout(wait, 10));
            }
            if (end) socket.end();
            else socket.destroy();
          });
        });
        return { answer, logger };
      } finally {
        await new Promise((resolve) => server.close(resolve));
      }
    }
    const head = (framing: string) =>
      `POST /v1/admin/login HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nConnection: close\r\n${framing}\r\n\r\n`;

    it('reads a chunked body that arrives in parts, whole (the domain answers 401 to its wrong password)', async () => {
      const chunk = (text: string) => `${text.length.toString(16)}\r\n${text}\r\n`;
      const parts = [
        head('Transfer-Encoding: chunked'),
        chunk(login.slice(0, 20)),
        chunk(login.slice(20)),
        '0\r\n\r\n',
      ];
      expect((await exchange(parts, true)).answer).toMatch(/^HTTP\/1\.1 401 /);
    });

    it('answers a malformed body 400, and one cut off by a client that went logs no error', async () => {
      expect((await exchange([head('Content-Length: 8'), '{"data":'], true)).answer).toMatch(/^HTTP\/1\.1 400 /);
      const { logger } = await exchange([head(`Content-Length: ${login.length}`), login.slice(0, 10)], false);
      // The request's line, once its answer (to nobody) is made: a 400, and nothing logged as an error.
      await expect.poll(() => logger.entries.find((entry) => entry.msg === 'request')?.fields.status).toBe(400);
      expect(logger.entries.filter((entry) => entry.level === 'error')).toEqual([]);
    });
  });
});
