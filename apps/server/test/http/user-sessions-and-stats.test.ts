import { describe, expect, it } from 'vitest';
import type { SessionListDocument } from '@uas/client';
import { BACKENDS } from '../support/test-application';
import { UNKNOWN_ID } from '../support/wire';
import { expectError } from '../support/error-expectations';
import { userScenario } from '../support/user-client';

const FAILURE_WINDOW_SECONDS = 600;

type ListedSession = SessionListDocument['data'][number];

describe.each(BACKENDS)('sessions, last login and the overview on %s', (backend) => {
  const scenario = userScenario(backend, {
    fresh: 'each',
    env: { LOGIN_FAILURE_WINDOW_SECONDS: String(FAILURE_WINDOW_SECONDS) },
  });

  async function sessionsOf(userId: string): Promise<ListedSession[]> {
    const response = await scenario.api.asAdmin('GET', `/v1/admin/users/${userId}/sessions`);
    expect(response.status).toBe(200);
    return (await response.json()).data;
  }

  it('lists where a user is signed in; ending one session stops its tokens at once, ending all stops every one', async () => {
    const { t, api } = scenario;
    const user = await api.createUser();
    const first = await api.loginAs(user);
    t.clock.advance(60);
    const second = await api.loginAs(user);
    t.clock.advance(60);
    const refreshed = await api.refresh(first.refreshToken);
    expect(refreshed.status).toBe(200);
    const listed = await sessionsOf(user.id);
    expect(listed).toHaveLength(2);
    expect(listed[0]!.attributes).toEqual({
      created: new Date(t.clock.now().getTime() - 120_000).toISOString(),
      last_used: t.clock.now().toISOString(),
      expires: expect.any(String),
      client_address: '127.0.0.1',
      user_agent: null,
      impersonated_by: null,
    });
    const secondId = listed[1]!.id;

    const ended = await api.asAdmin('DELETE', `/v1/admin/users/${user.id}/sessions/${secondId}`);
    expect(ended.status).toBe(204);
    await expectError(await api.me(second.accessToken), 401, 'invalid_token');
    expect((await api.refresh(second.refreshToken)).status).toBe(401);
    await expectError(await api.asAdmin('DELETE', `/v1/admin/users/${user.id}/sessions/${secondId}`), 404, 'not_found');
    // The end is one session.revoked event, by the admin, about the user; the refused second end is none.
    const trail = await api.asAdmin(
      'GET',
      `/v1/admin/audit-events?filter[action]=session.revoked&filter[target]=${user.id}`,
    );
    const [event, ...others] = (await trail.json()).data;
    expect(others).toEqual([]);
    expect(event.attributes).toMatchObject({
      actor: { type: 'admin' },
      target: { type: 'users', id: user.id },
      changes: { session: { before: secondId, after: null } },
    });

    const { data } = await refreshed.json();
    const current = String(data.attributes.access_token);
    expect((await api.me(current)).status).toBe(200);
    expect((await api.asAdmin('DELETE', `/v1/admin/users/${user.id}/sessions`)).status).toBe(204);
    await expectError(await api.me(current), 401, 'invalid_token');
    expect(await sessionsOf(user.id)).toEqual([]);
    await expectError(await api.asAdmin('GET', `/v1/admin/users/${UNKNOWN_ID}/sessions`), 404, 'not_found');
  });

  it("lets a user see and end their own sessions, and no one else's", async () => {
    const { api } = scenario;
    const user = await api.createUser();
    const phone = await api.loginAs(user);
    const laptop = await api.loginAs(user);
    const mine = await api.client.get('/v1/users/me/sessions', laptop.accessToken);
    expect(mine.status).toBe(200);
    const listed: ListedSession[] = (await mine.json()).data;
    expect(listed).toHaveLength(2);
    const other = await api.createUser();
    const stranger = await api.loginAs(other);
    for (const { id } of listed) {
      await expectError(await api.client.delete(`/v1/users/me/sessions/${id}`, stranger.accessToken), 404, 'not_found');
    }
    expect((await api.me(phone.accessToken)).status).toBe(200);
    // The listing does not say which session is which: end the first, and exactly one stops working.
    expect((await api.client.delete(`/v1/users/me/sessions/${listed[0]!.id}`, laptop.accessToken)).status).toBe(204);
    const statuses = await Promise.all([api.me(phone.accessToken), api.me(laptop.accessToken)]);
    expect(statuses.map((response) => response.status).sort()).toEqual([200, 401]);
    const open = statuses[0]!.status === 200 ? phone : laptop;
    const left: ListedSession[] = (await (await api.client.get('/v1/users/me/sessions', open.accessToken)).json()).data;
    expect(left.map(({ id }) => id)).toEqual([listed[1]!.id]);
  });

  it('shows last_login and the recent failed logins in the list and on the user, without changing its ETag', async () => {
    const { t, api } = scenario;
    const user = await api.createUser();
    const before = await api.asAdmin('GET', `/v1/admin/users/${user.id}`);
    for (let i = 0; i < 2; i++) expect((await api.login(user.email, 'wrong password')).status).toBe(401);
    t.clock.advance(5);
    await api.loginAs(user);
    const after = await api.asAdmin('GET', `/v1/admin/users/${user.id}`);
    expect(after.headers.get('etag')).toBe(before.headers.get('etag'));
    expect((await after.json()).data.attributes).toMatchObject({
      last_login: t.clock.now().toISOString(),
      recent_failed_logins: 2,
      updated: user.attributes.updated,
    });
    const search = `/v1/admin/users?search[email]=${encodeURIComponent(user.email)}`;
    const [listed] = (await (await api.asAdmin('GET', search)).json()).data;
    expect(listed.attributes).toMatchObject({ last_login: t.clock.now().toISOString(), recent_failed_logins: 2 });
    t.clock.advance(FAILURE_WINDOW_SECONDS);
    const later = await api.asAdmin('GET', `/v1/admin/users/${user.id}`);
    expect((await later.json()).data.attributes.recent_failed_logins).toBe(0);
  });

  it("GET /v1/admin/stats counts users by state and the day's sign-ups, logins and failed logins", async () => {
    const { t, api } = scenario;
    const ada = await api.createUser();
    const bob = await api.createUser();
    await api.createUser({ active: 0 });
    await api.adminPatch(bob.id, { active: 0 });
    await api.adminDelete(bob.id);
    await api.loginAs(ada);
    await api.login(ada.email, 'wrong password');
    await api.login('nobody@example.com', 'wrong password');
    const response = await api.asAdmin('GET', '/v1/admin/stats');
    expect(response.status).toBe(200);
    const { attributes } = (await response.json()).data;
    expect(attributes.users).toEqual({ total: 2, active: 1, deactivated: 1 });
    expect(attributes.days).toHaveLength(30);
    expect(attributes.days.at(-1)).toEqual({
      day: t.clock.now().toISOString().slice(0, 10),
      signups: 3,
      logins: 1,
      failed_logins: 2,
    });
  });
});
