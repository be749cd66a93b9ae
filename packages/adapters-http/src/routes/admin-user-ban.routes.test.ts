import type { User } from '@uas/domain';
import { beforeEach, describe, expect, it } from 'vitest';
import { ADMIN, bearer, createTestApp, expectNoSecrets, jsonInit, loginDocument, type TestApp } from '../testing';

const PASSWORD = 'user-password-1';
const REASON = 'Spam reported by three users';

let t: TestApp;
let auth: Record<string, string>;
let user: User;

beforeEach(async () => {
  t = await createTestApp();
  auth = bearer((await t.loginAdmin()).accessToken);
  user = await t.createUser();
});

const inSeconds = (seconds: number) => new Date(t.clock.now().getTime() + seconds * 1000).toISOString();
const ban = (id: string, body: unknown, headers = auth) =>
  t.app.request(`/v1/admin/users/${id}/ban`, jsonInit('POST', body, headers));
const unban = (id: string, headers = auth) => t.app.request(`/v1/admin/users/${id}/ban`, { method: 'DELETE', headers });
const attributesOf = async (response: Response) => (await response.json()).data.attributes;

describe('POST /v1/admin/users/{id}/ban', () => {
  it('bans: 200 with the user, banned until the given time with the reason; the user list and read show the same', async () => {
    const until = inSeconds(3600);
    const response = await ban(user.id, { reason: REASON, until });
    expect(response.status).toBe(200);
    expect(response.headers.get('etag')).toBe(`"${user.version + 1}"`);
    expect(await attributesOf(response)).toMatchObject({ banned: true, banned_until: until, ban_reason: REASON });
    const read = await t.app.request(`/v1/admin/users/${user.id}`, { headers: auth });
    expect(await attributesOf(read)).toMatchObject({ banned: true, banned_until: until, ban_reason: REASON });
    const list = await (await t.app.request('/v1/admin/users', { headers: auth })).json();
    expect(list.data[0].attributes).toMatchObject({ banned: true, banned_until: until, ban_reason: REASON });
  });

  it('takes until null or absent as a ban without end', async () => {
    expect(await attributesOf(await ban(user.id, { reason: REASON, until: null }))).toMatchObject({
      banned: true,
      banned_until: null,
    });
    const other = await t.createUser();
    expect(await attributesOf(await ban(other.id, { reason: REASON }))).toMatchObject({ banned_until: null });
  });

  it('ends the sessions of the user; a login with the right password is 403 account_banned, a wrong one 401', async () => {
    const before = await t.loginUser(user.email, PASSWORD);
    expect(before.response.status).toBe(200);
    await ban(user.id, { reason: REASON, until: null });
    const me = await t.app.request('/v1/users/me', { headers: bearer(before.accessToken) });
    expect(me.status).toBe(401);
    const refresh = await t.app.request('/v1/refresh', jsonInit('POST', { refreshToken: before.refreshToken }));
    expect(refresh.status).toBe(401);
    const right = await t.loginUser(user.email, PASSWORD);
    expect(right.response.status).toBe(403);
    expect((await right.response.json()).errors[0]).toMatchObject({ code: 'account_banned' });
    const wrong = await t.loginUser(user.email, 'wrong-password-1');
    expect(wrong.response.status).toBe(401);
    expect((await wrong.response.json()).errors[0]).toMatchObject({ code: 'invalid_credentials' });
  });

  it('lifts itself at until: the user shows not banned and logs in', async () => {
    await ban(user.id, { reason: REASON, until: inSeconds(60) });
    t.clock.advance(60);
    const read = await t.app.request(`/v1/admin/users/${user.id}`, { headers: auth });
    expect(await attributesOf(read)).toMatchObject({ banned: false, banned_until: null, ban_reason: null });
    expect((await t.loginUser(user.email, PASSWORD)).response.status).toBe(200);
  });

  it('records user.banned under the acting admin, with the reason and the end', async () => {
    const until = inSeconds(3600);
    await ban(user.id, { reason: REASON, until });
    const audit = await (
      await t.app.request('/v1/admin/audit-events?filter[action]=user.banned', { headers: auth })
    ).json();
    expect(audit.data[0].attributes).toMatchObject({
      action: 'user.banned',
      actor: { type: 'admin', id: t.admin.id },
      target: { type: 'users', id: user.id },
      changes: { ban_reason: { before: null, after: REASON }, banned_until: { before: null, after: until } },
    });
  });

  it.each([
    ['no reason', { until: null }, ['/reason']],
    ['a blank reason', { reason: '  ', until: null }, ['/reason']],
    ['a reason too long', { reason: 'x'.repeat(501) }, ['/reason']],
    ['a reason of another type', { reason: 7 }, ['/reason']],
    ['an end that is not a time', { reason: REASON, until: 'next week' }, ['/until']],
    ['an end of another type', { reason: REASON, until: 1_900_000_000 }, ['/until']],
    ['an end passed', { reason: REASON, until: '2020-01-01T00:00:00.000Z' }, ['/until']],
    ['an unknown member', { reason: REASON, forever: true }, ['/forever']],
    ['a body that is no object', [REASON], ['']],
  ])('refuses %s: 422 pointing at it, the user unchanged', async (_, body, pointers) => {
    const response = await ban(user.id, body);
    expect(response.status).toBe(422);
    await expectNoSecrets(response, ['next week']);
    const { errors } = await response.json();
    expect(errors.map((error: { source: { pointer: string } }) => error.source.pointer)).toEqual(pointers);
    expect((await t.loginUser(user.email, PASSWORD)).response.status).toBe(200);
  });

  it('answers 404 for an unknown user, and for an id that is no uuid', async () => {
    expect((await ban('00000000-0000-4000-8000-ffffffffffff', { reason: REASON })).status).toBe(404);
    expect((await ban('not-a-uuid', { reason: REASON })).status).toBe(404);
    expect((await unban('00000000-0000-4000-8000-ffffffffffff')).status).toBe(404);
  });

  it('needs an admin token of a role that may ban: 401 without, 403 for an auditor', async () => {
    expect((await ban(user.id, { reason: REASON }, {})).status).toBe(401);
    const userToken = (await t.loginUser(user.email, PASSWORD)).accessToken;
    expect((await ban(user.id, { reason: REASON }, bearer(userToken))).status).toBe(403);
    const auditor = { ...t.admin, id: '00000000-0000-4000-8000-0000000a0d17', email: 'auditor@example.com' };
    await t.repositories.admins.insert({ ...auditor, role: 'auditor' });
    const login = await t.app.request(
      '/v1/admin/login',
      jsonInit('POST', loginDocument(auditor.email, ADMIN.password)),
    );
    const auditorAuth = bearer((await login.json()).data.attributes.access_token);
    const refused = await ban(user.id, { reason: REASON }, auditorAuth);
    expect(refused.status).toBe(403);
    expect((await refused.json()).errors[0]).toMatchObject({ code: 'forbidden' });
    expect((await unban(user.id, auditorAuth)).status).toBe(403);
  });
});

describe('DELETE /v1/admin/users/{id}/ban', () => {
  it('lifts the ban: 200 with the user not banned, who logs in again; user.unbanned is recorded', async () => {
    await ban(user.id, { reason: REASON, until: null });
    const response = await unban(user.id);
    expect(response.status).toBe(200);
    expect(await attributesOf(response)).toMatchObject({ banned: false, banned_until: null, ban_reason: null });
    expect((await t.loginUser(user.email, PASSWORD)).response.status).toBe(200);
    const audit = await (
      await t.app.request('/v1/admin/audit-events?filter[action]=user.unbanned', { headers: auth })
    ).json();
    expect(audit.data[0].attributes).toMatchObject({ actor: { type: 'admin', id: t.admin.id } });
  });

  it('answers a user without a ban as it is', async () => {
    const response = await unban(user.id);
    expect(response.status).toBe(200);
    expect(response.headers.get('etag')).toBe(`"${user.version}"`);
  });
});

describe('GET /v1/users/me', () => {
  it("does not show the user's ban attributes to the user", async () => {
    const { accessToken } = await t.loginUser(user.email, PASSWORD);
    const me = await attributesOf(await t.app.request('/v1/users/me', { headers: bearer(accessToken) }));
    expect(me).not.toHaveProperty('banned');
    expect(me).not.toHaveProperty('banned_until');
    expect(me).not.toHaveProperty('ban_reason');
  });
});
