import { describe, expect, it } from 'vitest';
import { BACKENDS, type TestApplication } from '../support/test-application';
import { errorsLike } from '../support/error-expectations';
import { userScenario } from '../support/user-client';

const TOKEN = 'a-metrics-token-that-is-long-enough-0123';
const FAILURES_PER_ACCOUNT = 2;

async function scrape(t: TestApplication, token: string | null = TOKEN): Promise<Response> {
  return t.app.request('/metrics', token === null ? {} : { headers: { Authorization: `Bearer ${token}` } });
}

/** The value of the sample `name` whose labels include `labels`; undefined when there is none. */
function sample(text: string, name: string, labels: Record<string, string> = {}): number | undefined {
  const wanted = Object.entries(labels).map(([key, value]) => `${key}="${value}"`);
  for (const line of text.split('\n')) {
    const match = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!match || match[1] !== name) continue;
    const present = (match[2] ?? '').split(',');
    if (wanted.every((pair) => present.includes(pair))) return Number(match[3]);
  }
  return undefined;
}

describe.each(BACKENDS)('GET /metrics on %s', (backend) => {
  describe('with METRICS_TOKEN set', () => {
    // No reuse grace: presenting a rotated token again is a reuse at once.
    const s = userScenario(backend, {
      env: {
        METRICS_TOKEN: TOKEN,
        LOGIN_FAILURES_PER_ACCOUNT: String(FAILURES_PER_ACCOUNT),
        REFRESH_REUSE_GRACE_SECONDS: '0',
      },
    });

    it('answers only the bearer of the token: 401 missing_token without it, 401 invalid_token with another', async () => {
      const missing = await scrape(s.t, null);
      expect(missing.status).toBe(401);
      expect(await missing.json()).toEqual(errorsLike([401, 'missing_token']));
      for (const wrong of [`${TOKEN}x`, TOKEN.slice(1), 'x']) {
        const refused = await scrape(s.t, wrong);
        expect(refused.status).toBe(401);
        expect(await refused.json()).toEqual(errorsLike([401, 'invalid_token']));
      }
    });

    it('counts logins by outcome, reuse detections, revocations and requests by route template', async () => {
      const ada = await s.api.createUser({ email: 'ada@example.com' });
      const inactive = await s.api.createUser({ active: 0 });
      const before = await (await scrape(s.t)).text();
      const count = (text: string, name: string, labels?: Record<string, string>) => sample(text, name, labels) ?? 0;

      const session = await s.api.loginAs(ada);
      for (let i = 0; i < FAILURES_PER_ACCOUNT; i++)
        expect((await s.api.login(ada.email, 'wrong password')).status).toBe(401);
      expect((await s.api.login(ada.email, 'wrong password')).status).toBe(429);
      expect((await s.api.login(inactive.email, inactive.password)).status).toBe(403);

      expect((await s.api.refresh(session.refreshToken)).status).toBe(200);
      expect((await s.api.refresh(session.refreshToken)).status).toBe(401); // reused: the session is revoked
      expect((await s.api.asAdmin('GET', `/v1/admin/users/${ada.id}`)).status).toBe(200);
      const admin = await s.api.client.adminSession();
      expect((await s.api.client.delete(`/v1/admin/logout/${admin.id}`, admin.accessToken)).status).toBe(204);

      const response = await scrape(s.t);
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
      const after = await response.text();
      const delta = (name: string, labels?: Record<string, string>) =>
        count(after, name, labels) - count(before, name, labels);

      expect(delta('uas_logins_total', { outcome: 'success' })).toBe(2); // ada, then the admin
      expect(delta('uas_logins_total', { outcome: 'wrong_password' })).toBe(FAILURES_PER_ACCOUNT);
      expect(delta('uas_logins_total', { outcome: 'throttled' })).toBe(1);
      expect(delta('uas_logins_total', { outcome: 'inactive' })).toBe(1);
      expect(delta('uas_refresh_token_reuse_detections_total')).toBe(1);
      expect(delta('uas_session_revocations_total', { scope: 'session' })).toBeGreaterThanOrEqual(1);
      expect(delta('uas_session_revocations_total', { scope: 'account' })).toBe(1);

      const byId = { method: 'GET', route: '/v1/admin/users/:id', status: '200' };
      expect(delta('uas_http_requests_total', byId)).toBe(1);
      expect(delta('uas_http_request_duration_seconds_count', byId)).toBe(1);
      expect(delta('uas_http_requests_total', { method: 'POST', route: '/v1/login', status: '429' })).toBe(1);
      expect(after).not.toContain(ada.id); // labels are templates, never the requested path

      expect(count(after, 'uas_db_operation_duration_seconds_count', { repository: 'sessions' })).toBeGreaterThan(0);
      // No request's operation is left counted; a background pass (the audit sequencer's tick) may be running.
      expect(sample(after, 'uas_db_operations_in_flight')).toBeLessThanOrEqual(1);
      expect(sample(after, 'uas_db_pool_size')).toBe(backend === 'sqlite' ? 1 : 10);
      expect(sample(after, 'uas_process_resident_memory_bytes')).toBeGreaterThan(10 * 1024 * 1024);
      expect(sample(after, 'uas_nodejs_eventloop_lag_seconds')).toBeGreaterThanOrEqual(0);
    });

    it('labels a request no route matched as unmatched, whatever its path', async () => {
      expect((await s.t.app.request('/no/such/path/4242')).status).toBe(404);
      const text = await (await scrape(s.t)).text();
      expect(sample(text, 'uas_http_requests_total', { route: 'unmatched', status: '404' })).toBeGreaterThanOrEqual(1);
      expect(text).not.toContain('/no/such/path/4242');
    });
  });

  describe('without METRICS_TOKEN', () => {
    const s = userScenario(backend);

    it('has no metrics endpoint at all: 404 route_not_found, even with a bearer', async () => {
      const response = await scrape(s.t);
      expect(response.status).toBe(404);
      expect(await response.json()).toEqual(errorsLike([404, 'route_not_found']));
    });
  });
});
