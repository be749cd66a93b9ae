import { describe, expect, it } from 'vitest';
import type { AuditEventListDocument } from '@uas/client';
import { AuditService, SECRET_PURPOSES } from '@uas/domain';
import { BACKENDS, type TestApplication } from '../support/test-application';
import { jsonInit, loginDocument, usersDocument } from '@uas/adapters-http/testing';
import { sessionOf } from '../support/admin-api';
import { errorsLike } from '../support/error-expectations';
import { scenarioApplication, type Scenario } from '../support/scenario';
import { ISO_MS, USER_PASSWORD, UUID } from '../support/wire';
import { withApplicationDatabase } from '../support/token-forgery';

const EVENTS = '/v1/admin/audit-events';
const HASH = /^[0-9a-f]{64}$/;

/** The whole chain as it stands, verified straight in the database the application writes to. */
const verifyChain = (t: TestApplication) =>
  withApplicationDatabase(t, (database) => new AuditService({ audit: database.repositories.audit }).verify());

/** The events the API lists for `query`; fails the test unless 200. */
async function listEvents(s: Scenario, query = '?page[size]=100', token?: string): Promise<AuditEventListDocument> {
  const response = await s.client.get(`${EVENTS}${query}`, token ?? (await s.client.adminToken()));
  expect(response.status, await response.clone().text()).toBe(200);
  return (await response.json()) as AuditEventListDocument;
}

describe.each(BACKENDS)('GET /v1/admin/audit-events on %s', (backend) => {
  const s = scenarioApplication(backend, { fresh: 'each' });
  const events = (query?: string, token?: string) => listEvents(s, query, token);
  const actionsOf = (document: AuditEventListDocument) => document.data.map((event) => event.attributes.action);
  /** The newest event with `action`; fails the test when there is none. */
  async function latest(action: string): Promise<AuditEventListDocument['data'][number]['attributes']> {
    const found = (await events(`?filter[action]=${action}`)).data[0];
    expect(found, `an event ${action}`).toBeDefined();
    return found!.attributes;
  }

  it('records an admin login with who, from where, by which request and client, chained to what came before', async () => {
    const response = await s.client.login(s.t.admin.email, s.t.admin.password, { address: '198.51.100.9' });
    const session = await sessionOf(response);
    const { data } = await events(undefined, session.accessToken);
    const [login, previous] = data;
    const [tokenSecret, mailSecret, rotation] = data.slice(-3);
    expect(login).toEqual({
      type: 'audit-events',
      id: expect.stringMatching(UUID),
      attributes: {
        time: expect.stringMatching(ISO_MS),
        actor: { type: 'admin', id: session.id },
        action: 'admin.login',
        target: { type: 'admins', id: session.id },
        changes: { session: { before: null, after: expect.stringMatching(UUID) } },
        request_id: response.headers.get('x-request-id'),
        client_address: '198.51.100.9',
        user_agent: null,
        hash: expect.stringMatching(HASH),
        previous_hash: previous!.attributes.hash,
      },
    });
    // The first start made the first signing key, the chain's first event, then the first secret
    // of each purpose (mail first, then single-use tokens and TOTP secrets), all by the system.
    expect(rotation!.attributes).toMatchObject({
      actor: { type: 'system', id: null },
      action: 'signing_key.rotated',
      target: { type: 'signing-keys' },
      previous_hash: null,
    });
    expect(mailSecret!.attributes).toMatchObject({
      actor: { type: 'system', id: null },
      action: 'secret.rotated',
      target: { type: 'secrets' },
      previous_hash: rotation!.attributes.hash,
    });
    expect(tokenSecret!.attributes).toMatchObject({
      actor: { type: 'system', id: null },
      action: 'secret.rotated',
      target: { type: 'secrets' },
      previous_hash: mailSecret!.attributes.hash,
    });
  });

  it('records user changes with what each attribute was and became, a password only as changed', async () => {
    const admin = await s.client.adminSession();
    const token = admin.accessToken;
    const headers = { 'User-Agent': 'audit-test/1.0', 'X-Request-Id': 'req-audit-1' };
    const user = await s.client.createUser({ email: 'kim@example.com', name: 'Kim', metadata: { plan: 'free' } });
    const created = await latest('user.created');
    expect(created.target).toEqual({ type: 'users', id: user.id });
    expect(created.changes).toEqual({
      name: { before: null, after: 'Kim' },
      email: { before: null, after: 'kim@example.com' },
      metadata: { before: null, after: { plan: 'free' } },
      app: { before: null, after: {} },
      active: { before: null, after: 1 },
      email_verified: { before: null, after: user.attributes.email_verified },
      version: { before: null, after: 1 },
    });

    const patch = usersDocument({ name: 'Kim Lee', password: 'another-password-1' }, { id: user.id });
    expect((await s.client.send('PATCH', `/v1/admin/users/${user.id}`, patch, token, headers)).status).toBe(200);
    const updated = await latest('user.updated');
    expect(updated).toMatchObject({
      actor: { type: 'admin', id: admin.id },
      target: { type: 'users', id: user.id },
      changes: { name: { before: 'Kim', after: 'Kim Lee' }, password: { before: 'changed', after: 'changed' } },
      request_id: 'req-audit-1',
      user_agent: 'audit-test/1.0',
    });
    // The user's version (its ETag's number) goes with every change: what a webhook receiver orders updates by.
    expect(Object.keys(updated.changes ?? {}).sort()).toEqual(['name', 'password', 'version']);
    expect(updated.changes?.version).toEqual({ before: 1, after: 2 });

    const deactivate = usersDocument({ active: 0 }, { id: user.id });
    expect((await s.client.send('PATCH', `/v1/admin/users/${user.id}`, deactivate, token)).status).toBe(200);
    expect((await latest('user.deactivated')).changes).toEqual({
      active: { before: 1, after: 0 },
      version: { before: 2, after: 3 },
    });

    const unverify = usersDocument({ email_verified: false }, { id: user.id });
    expect((await s.client.send('PATCH', `/v1/admin/users/${user.id}`, unverify, token)).status).toBe(200);
    expect((await latest('user.updated')).changes).toEqual({
      email_verified: { before: user.attributes.email_verified, after: null },
      version: { before: 3, after: 4 },
    });

    expect((await s.client.delete(`/v1/admin/users/${user.id}`, token)).status).toBe(204);
    expect((await latest('user.deleted')).changes).toMatchObject({
      email: { before: 'kim@example.com', after: null },
      name: { before: 'Kim Lee', after: null },
    });
    expect(JSON.stringify(await events())).not.toMatch(/another-password|\$2[aby]\$/);
  });

  it('records failed admin logins, refresh-token reuse, revocation and logout', async () => {
    expect((await s.client.login(s.t.admin.email, 'wrong-password-1')).status).toBe(401);
    expect((await s.client.login('nobody@example.com', 'wrong-password-1')).status).toBe(401);
    const failed = (await events('?filter[action]=admin.login_failed')).data.map((event) => event.attributes);
    expect(failed.map((event) => [event.actor.type, event.target?.type ?? null])).toEqual([
      ['admin', null],
      ['admin', 'admins'],
    ]);

    const session = await s.client.adminSession();
    const rotated = await sessionOf(await s.client.refresh(session.refreshToken));
    s.t.clock.advance(60); // past the reuse grace window
    expect((await s.client.refresh(session.refreshToken)).status).toBe(401);
    expect(await latest('session.reuse_detected')).toMatchObject({
      actor: { type: 'system', id: null },
      target: { type: 'admins', id: session.id },
      changes: { session: { before: expect.stringMatching(UUID), after: null } },
    });
    expect(rotated.refreshToken).not.toBe(session.refreshToken);

    const other = await s.client.adminSession();
    const revoke = jsonInit(
      'DELETE',
      { refreshToken: other.refreshToken },
      { Authorization: `Bearer ${other.accessToken}` },
    );
    expect((await s.client.request('/v1/admin/refresh', revoke)).status).toBe(204);
    expect((await s.client.request('/v1/admin/refresh', revoke)).status).toBe(204);
    expect((await events('?filter[action]=session.revoked')).meta.total).toBe(1);

    expect((await s.client.delete(`/v1/admin/logout/${other.id}`, other.accessToken)).status).toBe(204);
    expect(await latest('session.logout')).toMatchObject({
      actor: { type: 'admin', id: other.id },
      target: { type: 'admins', id: other.id },
    });
  });

  it('records the failure that starts throttling a user, once', async () => {
    const user = await s.client.createUser({ email: 'guess@example.com' });
    const attempt = () =>
      s.client.request('/v1/login', jsonInit('POST', loginDocument('guess@example.com', 'wrong-password-1')));
    for (let i = 0; i < 10; i += 1) expect((await attempt()).status).toBe(401);
    expect((await attempt()).status).toBe(429);
    const throttled = (await events('?filter[action]=user.login_throttled')).data;
    expect(throttled.map((event) => event.attributes.target)).toEqual([{ type: 'users', id: user.id }]);
  });

  it('pages newest first with links that keep the filters, and counts what matches', async () => {
    for (const name of ['a', 'b', 'c']) {
      await s.client.createUser({ email: `${name}@example.com` });
      s.t.clock.advance(1);
    }
    const page = await events('?filter[action]=user.created&page[size]=2');
    expect(page.data.map((event) => event.attributes.changes?.email?.after)).toEqual([
      'c@example.com',
      'b@example.com',
    ]);
    const link = (n: number) => `${EVENTS}?page[number]=${n}&page[size]=2&filter[action]=user.created`;
    expect(page.links).toEqual({ first: link(1), last: link(2), prev: null, next: link(2) });
    expect(page.meta).toEqual({ total: 3 });
    expect((await events(page.links.next!.slice(EVENTS.length))).data).toHaveLength(1);

    const all = await events();
    expect(all.meta.total).toBe(all.data.length);
    const times = all.data.map((event) => event.attributes.time);
    expect(times).toEqual(times.toSorted().reverse());
  });

  it('filters by target, actor, action and time', async () => {
    const admin = await s.client.adminSession();
    const user = await s.client.createUser({ email: 'f@example.com' });
    s.t.clock.advance(10);
    const between = new Date(s.t.clock.now().getTime() - 5000).toISOString();
    const token = await s.client.adminToken();
    await s.client.send('PATCH', `/v1/admin/users/${user.id}`, usersDocument({ name: 'F' }, { id: user.id }), token);
    expect(actionsOf(await events(`?filter[target]=${user.id}`))).toEqual(['user.updated', 'user.created']);
    expect(actionsOf(await events(`?filter[target]=${user.id}&filter[since]=${between}`))).toEqual(['user.updated']);
    expect(actionsOf(await events(`?filter[target]=${user.id}&filter[until]=${between}`))).toEqual(['user.created']);
    expect(actionsOf(await events(`?filter[actor]=system`))).toEqual([
      ...SECRET_PURPOSES.map(() => 'secret.rotated'),
      'signing_key.rotated',
    ]);
    expect(new Set(actionsOf(await events(`?filter[actor]=${admin.id}`)))).toEqual(
      new Set(['admin.login', 'user.created', 'user.updated']),
    );
    const today = between.slice(0, 10);
    expect((await events(`?filter[since]=${today}&filter[action]=user.updated`)).meta.total).toBe(1);
  });

  it.each([
    ['filter[since]', 'yesterday'],
    ['filter[since]', '2026-02-30'],
    ['filter[until]', '2026-11-21T10:00:00'],
    ['filter[action]', 'user.exploded'],
    ['filter[target]', ''],
    ['filter[actor]', 'x'.repeat(201)],
    ['page[size]', '101'],
  ])('refuses %s=%s with a 400 naming it', async (parameter, value) => {
    const response = await s.client.get(
      `${EVENTS}?${parameter}=${encodeURIComponent(value)}`,
      await s.client.adminToken(),
    );
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual(errorsLike([400, 'invalid_parameter', { parameter }]));
  });

  it('refuses since after until, and a repeated filter', async () => {
    const token = await s.client.adminToken();
    const reversed = await s.client.get(`${EVENTS}?filter[since]=2026-02-02&filter[until]=2026-02-01`, token);
    expect(await reversed.json()).toEqual(errorsLike([400, 'invalid_parameter', { parameter: 'filter[until]' }]));
    const twice = await s.client.get(`${EVENTS}?filter[action]=user.created&filter[action]=user.deleted`, token);
    expect(await twice.json()).toEqual(errorsLike([400, 'invalid_parameter', { parameter: 'filter[action]' }]));
  });

  it('answers only an admin: 401 without a token, 403 with a user token', async () => {
    expect((await s.client.get(EVENTS)).status).toBe(401);
    await s.client.createUser({ email: 'u@example.com' });
    const user = await s.client.userSession('u@example.com');
    expect((await s.client.get(EVENTS, user.accessToken)).status).toBe(403);
  });

  it('records nothing for a change that was refused', async () => {
    const token = await s.client.adminToken();
    const user = await s.client.createUser({ email: 'keep@example.com' });
    const before = (await events()).meta.total;
    const stale = { 'If-Match': '"999"' };
    const patch = usersDocument({ name: 'Never' }, { id: user.id });
    expect((await s.client.send('PATCH', `/v1/admin/users/${user.id}`, patch, token, stale)).status).toBe(412);
    expect((await s.client.createUser({ email: 'other@example.com' })).id).toMatch(UUID);
    const clash = usersDocument({ email: 'other@example.com' }, { id: user.id });
    expect((await s.client.send('PATCH', `/v1/admin/users/${user.id}`, clash, token)).status).toBe(409);
    const duplicate = usersDocument({ email: 'keep@example.com', password: USER_PASSWORD });
    expect((await s.client.send('POST', '/v1/admin/users', duplicate, token)).status).toBe(409);
    const document = await events();
    expect(document.meta.total).toBe(before + 1);
    expect(actionsOf(document)[0]).toBe('user.created');
    expect((await verifyChain(s.t)).broken).toBeNull();
  });

  it('records imports per batch written and exports, by the admin who made them', async () => {
    const token = await s.client.adminToken();
    const body = ['i1', 'i2']
      .map((name) => `${JSON.stringify({ email: `${name}@example.com`, password: 'import-password-1' })}\n`)
      .join('');
    const imported = await s.client.request('/v1/admin/users/import', {
      method: 'POST',
      body,
      headers: { 'Content-Type': 'application/x-ndjson', Authorization: `Bearer ${token}` },
    });
    expect(imported.status).toBe(200);
    // The users it wrote, by id and version (never an attribute): what their webhook events are made of.
    const user = { id: expect.any(String), version: 1 };
    expect((await latest('users.imported')).changes).toEqual({
      created: { before: null, after: 2 },
      updated: { before: null, after: 0 },
      created_users: { before: null, after: [user, user] },
      updated_users: { before: null, after: [] },
    });
    const exported = await s.t.app.request('/v1/admin/users/export?with_password_hashes=true', {
      headers: { Authorization: `Bearer ${token}` },
    });
    await exported.text();
    expect(await latest('users.exported')).toMatchObject({
      actor: { type: 'admin' },
      changes: { password_hashes: { before: null, after: true } },
    });
  });
});

/** Truly concurrent requests through the real application, round after round, counting what was lost. */
describe.each(BACKENDS)('the audit chain under concurrent changes on %s', (backend) => {
  const s = scenarioApplication(backend);
  const ROUNDS = 20;

  it(`keeps one valid chain and an event for every change that landed, over ${ROUNDS} rounds`, {
    timeout: 120_000,
  }, async () => {
    const token = await s.client.adminToken();
    const landed: Record<string, number> = {};
    for (let round = 0; round < ROUNDS; round += 1) {
      const user = await s.client.createUser({ email: `round${round}@example.com` });
      const doomed = await s.client.createUser({ email: `doomed${round}@example.com` });
      const path = `/v1/admin/users/${user.id}`;
      // Six requests in flight together: two changes of one user, a refused one, a create, a delete, a failed login.
      const requests: [string, Promise<Response>][] = [
        ['user.updated', s.client.send('PATCH', path, usersDocument({ name: `n${round}` }, { id: user.id }), token)],
        ['user.updated', s.client.send('PATCH', path, usersDocument({ metadata: { round } }, { id: user.id }), token)],
        [
          'none',
          s.client.send('PATCH', path, usersDocument({ name: 'x' }, { id: user.id }), token, { 'If-Match': '"0"' }),
        ],
        [
          'user.created',
          s.client.send(
            'POST',
            '/v1/admin/users',
            usersDocument({ email: `extra${round}@example.com`, password: USER_PASSWORD }),
            token,
          ),
        ],
        ['user.deleted', s.client.delete(`/v1/admin/users/${doomed.id}`, token)],
        ['admin.login_failed', s.client.login(s.t.admin.email, 'wrong-password-1', { address: `192.0.2.${round}` })],
      ];
      landed['user.created'] = (landed['user.created'] ?? 0) + 2;
      for (const [action, pending] of requests) {
        const response = await pending;
        if (response.status < 300) landed[action] = (landed[action] ?? 0) + 1;
        else if (action === 'admin.login_failed' && response.status === 401) landed[action] = (landed[action] ?? 0) + 1;
      }
    }
    const report = await verifyChain(s.t);
    expect(report.broken).toBeNull();
    expect(report.checked).toBe(report.state.head.seq);
    const lost: string[] = [];
    for (const [action, count] of Object.entries(landed)) {
      const recorded = (await listEvents(s, `?filter[action]=${action}`)).meta.total;
      if (recorded !== count) lost.push(`${action}: ${count} landed, ${recorded} recorded`);
    }
    expect(lost).toEqual([]);
    expect(landed.none).toBeUndefined();
  });
});
