import { describe, expect, it } from 'vitest';
import { TEST_JWKS, createTestApp } from '../testing';
import { JWKS_CACHE_CONTROL } from './jwks.routes';

describe('GET /health and GET /ready', () => {
  it('/health is 200 {"status":"ok"} even while the instance is not ready: liveness, nothing to restart', async () => {
    const { app } = await createTestApp({ ready: async () => 'The database is unreachable.' });
    const response = await app.request('/health');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^application\/json/);
    expect(await response.json()).toEqual({ status: 'ok' });
  });

  it('/ready is 200 {"status":"ready"} when the instance is ready', async () => {
    const { app } = await createTestApp();
    const response = await app.request('/ready');
    expect(response.status).toBe(200);
    expect(response.headers.get('cache-control')).toBe('no-store');
    expect(await response.json()).toEqual({ status: 'ready' });
  });

  it('/ready is a 503 JSON:API error saying why while it is not, with Retry-After', async () => {
    const { app } = await createTestApp({ ready: async () => 'This instance is stopping.' });
    const response = await app.request('/ready');
    expect(response.status).toBe(503);
    expect(response.headers.get('retry-after')).toBe('5');
    expect(await response.json()).toEqual({
      errors: [{ status: '503', code: 'not_ready', title: 'Not ready', detail: 'This instance is stopping.' }],
    });
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
