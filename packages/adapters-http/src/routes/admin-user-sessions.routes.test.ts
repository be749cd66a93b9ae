import type { User } from '@uas/domain';
import type * as v from 'valibot';
import { beforeEach, describe, expect, it } from 'vitest';
import type { loginSessionListDocumentSchema } from '../presenters/login-session.presenter';
import { bearer, createTestApp, expectNoSecrets, fromAddress, jsonInit, loginDocument, type TestApp } from '../testing';

const PASSWORD = 'user-password-1';
const UNKNOWN = '00000000-0000-4000-8000-00000000dead';

/** A session listing as the API describes it, the admin's and the user's own alike. */
type SessionList = v.InferOutput<typeof loginSessionListDocumentSchema>;

let t: TestApp;
let user: User;
let admin: Record<string, string>;

beforeEach(async () => {
  t = await createTestApp();
  user = await t.createUser({ email: 'ann@example.com' });
  admin = bearer((await t.loginAdmin()).accessToken);
});

/** Logs Ann in from `address` with `userAgent`; answers her tokens. */
async function annLogsIn(address = '203.0.113.7', userAgent = 'Firefox/140') {
  const response = await t.app.request(
    '/v1/login',
    jsonInit('POST', loginDocument('ann@example.com', PASSWORD), { 'User-Agent': userAgent }),
    fromAddress(address),
  );
  const { data } = await response.json();
  return { access: String(data.attributes.access_token), refresh: String(data.attributes.refresh_token) };
}

const sessionsOf = (id: string, headers = admin) => t.app.request(`/v1/admin/users/${id}/sessions`, { headers });

describe('GET /v1/admin/users/{id}/sessions', () => {
  it('lists the live sessions, most recently used first, with where they came from, and never a token', async () => {
    const first = await annLogsIn('203.0.113.7', 'Firefox/140');
    t.clock.advance(60);
    await annLogsIn('2001:db8::1', 'curl/8.0');
    const response = await sessionsOf(user.id);
    expect(response.status).toBe(200);
    await expectNoSecrets(response, [first.access, first.refresh, PASSWORD, user.passwordHash]);
    const body = (await response.json()) as SessionList;
    expect(body.meta).toEqual({ total: 2 });
    expect(body.data.map((s) => s.attributes.user_agent)).toEqual(['curl/8.0', 'Firefox/140']);
    expect(body.data[1]).toEqual({
      type: 'sessions',
      id: expect.any(String),
      attributes: {
        created: '2026-01-01T00:00:00.000Z',
        last_used: '2026-01-01T00:00:00.000Z',
        expires: '2026-01-08T00:00:00.000Z',
        client_address: '203.0.113.7',
        user_agent: 'Firefox/140',
        impersonated_by: null,
      },
    });
  });

  it('404s for an unknown or malformed user id, 401s without a token and 403s with a user token', async () => {
    expect((await sessionsOf(UNKNOWN)).status).toBe(404);
    expect((await sessionsOf('not-a-uuid')).status).toBe(404);
    expect((await t.app.request(`/v1/admin/users/${user.id}/sessions`)).status).toBe(401);
    const { access } = await annLogsIn();
    expect((await sessionsOf(user.id, bearer(access))).status).toBe(403);
  });
});

describe('DELETE /v1/admin/users/{id}/sessions/{sessionId}', () => {
  it('ends that session: its access token gets 401 at once, its refresh token too; the other lives', async () => {
    const ending = await annLogsIn('203.0.113.7', 'Ending');
    const staying = await annLogsIn('203.0.113.7', 'Staying');
    const listed = ((await (await sessionsOf(user.id)).json()) as SessionList).data;
    const endingId = listed.find((session) => session.attributes.user_agent === 'Ending')!.id;
    const response = await t.app.request(`/v1/admin/users/${user.id}/sessions/${endingId}`, {
      method: 'DELETE',
      headers: admin,
    });
    expect(response.status).toBe(204);
    expect((await t.app.request('/v1/users/me', { headers: bearer(ending.access) })).status).toBe(401);
    expect((await t.app.request('/v1/refresh', jsonInit('POST', { refreshToken: ending.refresh }))).status).toBe(401);
    expect((await t.app.request('/v1/users/me', { headers: bearer(staying.access) })).status).toBe(200);
    // Ending it again: it is no longer a live session of this user.
    const again = await t.app.request(`/v1/admin/users/${user.id}/sessions/${endingId}`, {
      method: 'DELETE',
      headers: admin,
    });
    expect(again.status).toBe(404);
    expect((await again.json()).errors[0].code).toBe('not_found');
  });

  it("404s for another user's session, an unknown one or a malformed id, and ends nothing", async () => {
    const other = await t.createUser({ email: 'bob@example.com' });
    const bobs = await t.loginUser('bob@example.com', PASSWORD);
    const [bobSession] = ((await (await sessionsOf(other.id)).json()) as SessionList).data;
    for (const sessionId of [bobSession!.id, UNKNOWN, 'nope']) {
      const response = await t.app.request(`/v1/admin/users/${user.id}/sessions/${sessionId}`, {
        method: 'DELETE',
        headers: admin,
      });
      expect(response.status, sessionId).toBe(404);
    }
    expect((await t.app.request('/v1/users/me', { headers: bearer(bobs.accessToken) })).status).toBe(200);
  });
});

describe('DELETE /v1/admin/users/{id}/sessions', () => {
  it('ends every session of the user, and 404s for an unknown user', async () => {
    const one = await annLogsIn();
    const two = await annLogsIn();
    const bob = await t.createUser({ email: 'bob@example.com' });
    const bobs = await t.loginUser('bob@example.com', PASSWORD);
    const response = await t.app.request(`/v1/admin/users/${user.id}/sessions`, { method: 'DELETE', headers: admin });
    expect(response.status).toBe(204);
    for (const { access } of [one, two]) {
      expect((await t.app.request('/v1/users/me', { headers: bearer(access) })).status).toBe(401);
    }
    expect((await (await sessionsOf(user.id)).json()).data).toEqual([]);
    expect((await t.app.request('/v1/users/me', { headers: bearer(bobs.accessToken) })).status).toBe(200);
    expect(bob.id).not.toBe(user.id);
    const unknown = await t.app.request(`/v1/admin/users/${UNKNOWN}/sessions`, { method: 'DELETE', headers: admin });
    expect(unknown.status).toBe(404);
  });
});

describe('GET and DELETE /v1/users/me/sessions', () => {
  it("shows the user their own sessions and lets them end one, but not somebody else's", async () => {
    const phone = await annLogsIn('198.51.100.23', 'Phone');
    const laptop = await annLogsIn('203.0.113.7', 'Laptop');
    const listing = await t.app.request('/v1/users/me/sessions', { headers: bearer(laptop.access) });
    expect(listing.status).toBe(200);
    await expectNoSecrets(listing, [phone.access, phone.refresh, laptop.access, laptop.refresh]);
    const sessions = ((await listing.json()) as SessionList).data;
    expect(sessions.map((s) => s.attributes.user_agent).sort()).toEqual(['Laptop', 'Phone']);
    const phoneId = sessions.find((s) => s.attributes.user_agent === 'Phone')!.id;

    await t.createUser({ email: 'bob@example.com' });
    const bob = await t.loginUser('bob@example.com', PASSWORD);
    const notBobs = await t.app.request(`/v1/users/me/sessions/${phoneId}`, {
      method: 'DELETE',
      headers: bearer(bob.accessToken),
    });
    expect(notBobs.status).toBe(404);
    expect((await t.app.request('/v1/users/me', { headers: bearer(phone.access) })).status).toBe(200);

    const ended = await t.app.request(`/v1/users/me/sessions/${phoneId}`, {
      method: 'DELETE',
      headers: bearer(laptop.access),
    });
    expect(ended.status).toBe(204);
    expect((await t.app.request('/v1/users/me', { headers: bearer(phone.access) })).status).toBe(401);
    expect((await t.app.request('/v1/users/me', { headers: bearer(laptop.access) })).status).toBe(200);
  });

  it('refuses an admin token (403) and no token (401)', async () => {
    expect((await t.app.request('/v1/users/me/sessions', { headers: admin })).status).toBe(403);
    expect((await t.app.request('/v1/users/me/sessions')).status).toBe(401);
    expect((await t.app.request(`/v1/users/me/sessions/${UNKNOWN}`, { method: 'DELETE' })).status).toBe(401);
  });
});

describe('last_login and recent_failed_logins', () => {
  it('show the last login and the failures within the throttling window in the list and on the user', async () => {
    const wrong = jsonInit('POST', loginDocument('ann@example.com', 'wrong password'));
    for (let i = 0; i < 3; i++) expect((await t.app.request('/v1/login', wrong)).status).toBe(401);
    t.clock.advance(30);
    await annLogsIn();
    const one = (await (await t.app.request(`/v1/admin/users/${user.id}`, { headers: admin })).json()).data;
    expect(one.attributes).toMatchObject({ last_login: '2026-01-01T00:00:30.000Z', recent_failed_logins: 3 });
    const list = (await (await t.app.request('/v1/admin/users', { headers: admin })).json()).data;
    expect(list[0].attributes).toMatchObject({ last_login: '2026-01-01T00:00:30.000Z', recent_failed_logins: 3 });
    t.clock.advance(15 * 60);
    const again = bearer((await t.loginAdmin()).accessToken);
    const later = (await (await t.app.request(`/v1/admin/users/${user.id}`, { headers: again })).json()).data;
    expect(later.attributes.recent_failed_logins).toBe(0);
  });

  it('a login changes neither the ETag nor updated, so a conditional change made before it still applies', async () => {
    const before = await t.app.request(`/v1/admin/users/${user.id}`, { headers: admin });
    await annLogsIn();
    const after = await t.app.request(`/v1/admin/users/${user.id}`, { headers: admin });
    expect(after.headers.get('ETag')).toBe(before.headers.get('ETag'));
    expect((await after.json()).data.attributes.updated).toBe((await before.json()).data.attributes.updated);
  });
});

describe('GET /v1/admin/stats', () => {
  it('answers user totals and 30 days of sign-ups, logins and failed logins, oldest first', async () => {
    await t.createUser({ email: 'off@example.com', active: 0 });
    await annLogsIn();
    await t.app.request('/v1/login', jsonInit('POST', loginDocument('ann@example.com', 'wrong password')));
    const response = await t.app.request('/v1/admin/stats', { headers: admin });
    expect(response.status).toBe(200);
    const { data } = await response.json();
    expect(data).toMatchObject({ type: 'stats', id: 'overview' });
    expect(data.attributes.users).toEqual({ total: 2, active: 1, deactivated: 1 });
    expect(data.attributes.days).toHaveLength(30);
    expect(data.attributes.days.at(-1)).toEqual({ day: '2026-01-01', signups: 2, logins: 1, failed_logins: 1 });
    expect(data.attributes.days[0]).toEqual({ day: '2025-12-03', signups: 0, logins: 0, failed_logins: 0 });
  });

  it('is for admins only', async () => {
    expect((await t.app.request('/v1/admin/stats')).status).toBe(401);
    const { access } = await annLogsIn();
    expect((await t.app.request('/v1/admin/stats', { headers: bearer(access) })).status).toBe(403);
  });
});
