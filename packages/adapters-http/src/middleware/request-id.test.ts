import { describe, expect, it } from 'vitest';
import { createTestApp } from '../testing';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe('X-Request-Id', () => {
  it('echoes a sane id the client sent', async () => {
    const { app } = await createTestApp();
    const response = await app.request('/health', { headers: { 'X-Request-Id': 'abc-123.trace:7' } });
    expect(response.headers.get('x-request-id')).toBe('abc-123.trace:7');
  });

  it.each(['has spaces in it', 'x'.repeat(129), 'new\\nline', '"quoted"', ''])(
    'replaces an unfit id %j with a UUID',
    async (sent) => {
      const { app } = await createTestApp();
      const response = await app.request('/health', { headers: { 'X-Request-Id': sent } });
      expect(response.headers.get('x-request-id')).toMatch(UUID);
    },
  );

  it.each([
    ['a success', '/health', {}],
    ['an error', '/v1/admin/users', {}],
    ['an unknown route', '/nowhere', {}],
    ['a 415', '/v1/login', { method: 'POST', body: 'x', headers: { 'Content-Type': 'text/plain' } }],
  ])('is on %s', async (_, path, init) => {
    const { app } = await createTestApp();
    const response = await app.request(path, init);
    expect(response.headers.get('x-request-id')).toMatch(UUID);
  });
});

describe('the access log', () => {
  it('writes one line per request: method, path, status, duration, request id, client address; no query, no headers', async () => {
    const { app, logger, loginAdmin } = await createTestApp();
    const { accessToken } = await loginAdmin();
    logger.entries.length = 0;
    await app.request('/v1/admin/users?search[email]=secret-term', {
      headers: { Authorization: `Bearer ${accessToken}`, 'X-Request-Id': 'r-1' },
    });
    expect(logger.entries).toEqual([
      {
        level: 'info',
        msg: 'request',
        fields: {
          requestId: 'r-1',
          method: 'GET',
          path: '/v1/admin/users',
          status: 200,
          clientAddress: expect.any(String),
          durationMs: expect.any(Number),
        },
      },
    ]);
    expect(logger.text()).not.toContain('secret-term');
    expect(logger.text()).not.toContain(accessToken);
  });

  it('never logs the login body', async () => {
    const { logger, loginAdmin } = await createTestApp();
    await loginAdmin();
    expect(logger.text()).not.toContain('admin-password');
    expect(logger.text()).not.toContain('access_token');
  });
});
