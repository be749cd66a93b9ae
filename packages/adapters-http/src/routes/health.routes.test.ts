import { describe, expect, it } from 'vitest';
import { TEST_JWKS, createTestApp } from '../testing';
import { JWKS_CACHE_CONTROL } from './jwks.routes';

describe('GET /health', () => {
  it('is 200 {"status":"ok"} when the database answers', async () => {
    const { app } = await createTestApp();
    const response = await app.request('/health');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^application\/json/);
    expect(await response.json()).toEqual({ status: 'ok' });
  });

  it('is 503 when it does not, and logs why without request data', async () => {
    const { app, logger } = await createTestApp({ health: () => Promise.reject(new Error('connect ECONNREFUSED')) });
    const response = await app.request('/health');
    expect(response.status).toBe(503);
    expect(await response.json()).toEqual({ status: 'unavailable' });
    expect(logger.entries).toContainEqual(
      expect.objectContaining({ level: 'warn', msg: 'health check failed', fields: expect.objectContaining({ message: 'connect ECONNREFUSED' }) }),
    );
  });
});

describe('GET /.well-known/jwks.json', () => {
  it('publishes the key set with a public cache lifetime', async () => {
    const { app } = await createTestApp();
    const response = await app.request('/.well-known/jwks.json');
    expect(response.status).toBe(200);
    expect(response.headers.get('cache-control')).toBe(JWKS_CACHE_CONTROL);
    expect(await response.json()).toEqual(TEST_JWKS);
  });
});
