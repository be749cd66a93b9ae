import { describe, expect, it } from 'vitest';
import { bearer } from '@uas/adapters-http/testing';
import { BACKENDS } from '../support/test-application';
import { scenarioApplication } from '../support/scenario';

describe.each(BACKENDS)('GET /health and GET /ready on %s', (backend) => {
  const s = scenarioApplication(backend, { fresh: 'each' });
  const notReady = (detail: string) => ({ errors: [{ status: '503', code: 'not_ready', title: 'Not ready', detail }] });

  it('once started (migrated, admin and signing key in place) both answer 200', async () => {
    expect(await (await s.client.get('/health')).json()).toEqual({ status: 'ok' });
    const ready = await s.client.get('/ready');
    expect(ready.status).toBe(200);
    expect(await ready.json()).toEqual({ status: 'ready' });
  });

  it('while stopping, /ready is 503 not_ready and /health stays 200', async () => {
    s.t.readiness.markStopping();
    const ready = await s.t.app.request('/ready');
    expect(ready.status).toBe(503);
    expect(await ready.json()).toEqual(notReady('This instance is stopping.'));
    expect((await s.t.app.request('/health')).status).toBe(200);
  });

  it('when the database stops answering, /ready is 503 saying so, with no cause on the wire, and /health stays 200', async () => {
    await s.t.closeDatabase();
    const ready = await s.t.app.request('/ready');
    expect(ready.status).toBe(503);
    expect(ready.headers.get('retry-after')).toBe('5');
    expect(await ready.json()).toEqual(notReady('The database does not answer.'));
    expect((await s.t.app.request('/health')).status).toBe(200);
    expect(s.t.logs.join('\n')).toContain('readiness: the database does not answer');
  });

  it.runIf(backend === 'postgres')(
    'when the PostgreSQL pool is gone, a request that needs it is 503 database_unavailable with Retry-After, not a 500',
    async () => {
      const token = await s.client.adminToken();
      await s.t.closeDatabase();
      // Past the client wrapper, which holds every answer to "never a 5xx".
      const response = await s.t.app.request('/v1/admin/users', { headers: bearer(token) });
      expect(response.status).toBe(503);
      expect(response.headers.get('retry-after')).toBe('2');
      expect((await response.json()).errors).toEqual([
        expect.objectContaining({ status: '503', code: 'database_unavailable', title: 'Database unavailable' }),
      ]);
      expect(s.t.logs.join('\n')).toContain('database unavailable');
    },
  );
});
