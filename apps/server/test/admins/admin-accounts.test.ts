import { readFile, writeFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AdminKeyFileError } from '../../src/admin-key-file';
import { sessionOf } from '../support/admin-api';
import { AdminClient } from '../support/admin-client';
import { mailedLink, outboxIds } from '../support/outbox';
import { BACKENDS, startTestApplication, type TestApplication } from '../support/test-application';
import { sharedStoreEnv } from '../support/two-instances';
import {
  ADMIN_PASSWORD,
  ADMINS,
  invitationDocument,
  invite,
  joined,
  roleDocument,
  type AdminResource,
} from './admin-accounts-support';

const formPost = (token: string, password: string, confirmation = password): RequestInit => ({
  method: 'POST',
  headers: { 'Content-Type': 'application/x-www-form-urlencoded', 'Sec-Fetch-Site': 'same-origin' },
  body: new URLSearchParams({ token, password, confirmation }),
});

describe.each(BACKENDS)('administrators with roles on %s', (backend) => {
  let t: TestApplication;
  let client: AdminClient;
  let owner: string;
  beforeAll(async () => {
    t = await startTestApplication(backend);
    // The key file's admin is the earliest: every admin made here comes later, as in life.
    t.clock.advance(1);
    client = new AdminClient(t);
    owner = await client.adminToken();
  }, 60_000);
  afterAll(async () => t?.close());

  const me = async (token: string) => {
    const response = await client.get('/v1/admin/me', token);
    expect(response.status).toBe(200);
    return ((await response.json()) as { data: AdminResource }).data;
  };
  const tokenOf = async (email: string) =>
    (await client.adminSession({}, { email, password: ADMIN_PASSWORD })).accessToken;
  const errorCode = async (response: Response) =>
    ((await response.json()) as { errors: { code: string }[] }).errors[0]?.code;
  const latest = async (action: string) => {
    const response = await client.get(`/v1/admin/audit-events?filter[action]=${action}`, owner);
    return ((await response.json()) as { data: { attributes: Record<string, unknown> }[] }).data[0]?.attributes;
  };

  it("GET /v1/admin/me answers the key file's admin, an owner, without a hash", async () => {
    const admin = await me(owner);
    expect(admin).toEqual({
      type: 'admins',
      id: expect.any(String),
      attributes: {
        email: t.admin.email,
        name: expect.any(String),
        role: 'owner',
        created: expect.any(String),
        updated: expect.any(String),
      },
    });
  });

  it('an invitation mails a link to the admin-invitation page; its form makes a support admin who can log in', async () => {
    const created = await client.send('POST', ADMINS, invitationDocument('Sue@Example.com', 'support', 'Sue'), owner);
    expect(created.status).toBe(201);
    const { data } = (await created.json()) as {
      data: { id: string; type: string; attributes: Record<string, unknown> };
    };
    expect(data).toMatchObject({
      type: 'admin-invitations',
      attributes: { email: 'sue@example.com', name: 'Sue', role: 'support' },
    });
    const pending = await client.get(`${ADMINS}/invitations`, owner);
    expect(((await pending.json()) as { data: { id: string }[] }).data.map(({ id }) => id)).toEqual([data.id]);
    expect(await latest('admin.invited')).toMatchObject({ actor: { type: 'admin', id: (await me(owner)).id } });

    const link = await mailedLink(client, 'admin_invitation', 'sue@example.com');
    expect(link.pathname).toBe('/account/admin-invitation');
    const token = link.searchParams.get('token')!;
    const page = await t.app.request(`${link.pathname}${link.search}`);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-security-policy')).toBeTruthy();
    expect(await page.text()).toContain('<form');
    const mismatch = await t.app.request(link.pathname, formPost(token, ADMIN_PASSWORD, 'other password'));
    expect(mismatch.status).toBe(422);
    const done = await t.app.request(link.pathname, formPost(token, ADMIN_PASSWORD));
    expect(done.status).toBe(200);
    expect((await t.app.request(link.pathname, formPost(token, ADMIN_PASSWORD))).status).toBe(400);

    const sue = await tokenOf('sue@example.com');
    expect((await me(sue)).attributes).toMatchObject({ email: 'sue@example.com', name: 'Sue', role: 'support' });
    expect(await latest('admin.joined')).toMatchObject({ actor: { type: 'admin', id: (await me(sue)).id } });
    const refused = await client.get(ADMINS, sue);
    expect(refused.status).toBe(403);
    expect(await errorCode(refused)).toBe('forbidden');
  });

  it('POST /v1/admin/admins/accept makes the admin once; a bad invitation is refused as the rules say', async () => {
    const token = await invite(client, 'ann@example.com', 'auditor');
    const short = await client.send('POST', `${ADMINS}/accept`, { token, password: 'short' });
    expect(short.status).toBe(422);
    const accepted = await client.send('POST', `${ADMINS}/accept`, { token, password: ADMIN_PASSWORD });
    expect(accepted.status).toBe(201);
    expect(((await accepted.json()) as { data: AdminResource }).data.attributes).toMatchObject({ role: 'auditor' });
    const again = await client.send('POST', `${ADMINS}/accept`, { token, password: ADMIN_PASSWORD });
    expect(again.status).toBe(400);
    expect(await errorCode(again)).toBe('invalid_token');

    const taken = await client.send('POST', ADMINS, invitationDocument('ann@example.com', 'admin'), owner);
    expect(taken.status).toBe(409);
    expect(await errorCode(taken)).toBe('email_taken');
    const badRole = await client.send('POST', ADMINS, invitationDocument('bob@example.com', 'root'), owner);
    expect(badRole.status).toBe(422);
    const wrongType = await client.send(
      'POST',
      ADMINS,
      { data: { type: 'users', attributes: { email: 'bob@example.com', role: 'admin' } } },
      owner,
    );
    expect(wrongType.status).toBe(409);
  });

  it('a withdrawn invitation lists no more, its link stops working, and the withdrawal is recorded', async () => {
    const token = await invite(client, 'wes@example.com', 'admin');
    const listed = (await (await client.get(`${ADMINS}/invitations`, owner)).json()) as {
      data: { id: string; attributes: { email: string } }[];
    };
    const id = listed.data.find((invitation) => invitation.attributes.email === 'wes@example.com')!.id;
    expect((await client.delete(`${ADMINS}/invitations/${id}`, owner)).status).toBe(204);
    expect(await latest('admin.invitation_withdrawn')).toMatchObject({
      actor: { type: 'admin', id: (await me(owner)).id },
      target: { type: 'admin-invitations', id },
      changes: { email: { before: 'wes@example.com', after: null }, role: { before: 'admin', after: null } },
    });
    expect((await client.delete(`${ADMINS}/invitations/${id}`, owner)).status).toBe(404);
    expect((await client.send('POST', `${ADMINS}/accept`, { token, password: ADMIN_PASSWORD })).status).toBe(400);
  });

  it("an admin cannot open an owner's invitation in the outbox to take it (403 forbidden); an owner can", async () => {
    await joined(client, 'ada@example.com', 'admin');
    const ada = await tokenOf('ada@example.com');
    await invite(client, 'new-owner@example.com', 'owner');
    const [id] = await outboxIds(client, 'admin_invitation', 'new-owner@example.com');
    const listed = await client.get('/v1/admin/mail', ada);
    expect(listed.status).toBe(200);
    const refused = await client.get(`/v1/admin/mail/${id}`, ada);
    expect(refused.status).toBe(403);
    const refusal = await refused.text();
    expect(refusal).not.toContain('admin-invitation?token=');
    expect(JSON.parse(refusal).errors[0].code).toBe('forbidden');

    const opened = await client.get(`/v1/admin/mail/${id}`, owner);
    expect(opened.status).toBe(200);
    const { data } = (await opened.json()) as { data: { attributes: { body: { text: string } } } };
    const token = new URL(/https?:\/\/\S+/.exec(data.attributes.body.text)![0]).searchParams.get('token');
    const accepted = await client.send('POST', `${ADMINS}/accept`, { token, password: ADMIN_PASSWORD });
    expect(accepted.status).toBe(201);
    const newOwner = ((await accepted.json()) as { data: AdminResource }).data;
    expect(newOwner.attributes.role).toBe('owner');
    // The later cases count the owners.
    expect((await client.delete(`${ADMINS}/${newOwner.id}`, owner)).status).toBe(204);
  });

  it('a role change applies at the next request and is recorded; the last owner can be neither demoted nor removed', async () => {
    const carl = await joined(client, 'carl@example.com', 'auditor');
    const carlToken = await tokenOf('carl@example.com');
    expect((await client.get(`${ADMINS}/${carl.id}`, carlToken)).status).toBe(403);
    const promoted = await client.send('PATCH', `${ADMINS}/${carl.id}`, roleDocument(carl.id, 'owner'), owner);
    expect(promoted.status).toBe(200);
    expect((await client.get(`${ADMINS}/${carl.id}`, carlToken)).status).toBe(200);
    expect(await latest('admin.role_changed')).toMatchObject({
      target: { type: 'admins', id: carl.id },
      changes: { role: { before: 'auditor', after: 'owner' } },
    });

    // The key file's admin may be demoted while Carl is an owner; then Carl is the last one.
    const keyFileAdmin = (await me(owner)).id;
    expect(
      (await client.send('PATCH', `${ADMINS}/${keyFileAdmin}`, roleDocument(keyFileAdmin, 'admin'), carlToken)).status,
    ).toBe(200);
    const demoted = await client.send('PATCH', `${ADMINS}/${carl.id}`, roleDocument(carl.id, 'admin'), carlToken);
    expect(demoted.status).toBe(409);
    expect(await errorCode(demoted)).toBe('last_owner');
    const removed = await client.delete(`${ADMINS}/${carl.id}`, carlToken);
    expect(removed.status).toBe(409);
    expect(await errorCode(removed)).toBe('last_owner');
    expect(
      (await client.send('PATCH', `${ADMINS}/${keyFileAdmin}`, roleDocument(keyFileAdmin, 'owner'), carlToken)).status,
    ).toBe(200);
  });

  it("removing an admin ends their sessions; the key file's admin cannot be removed; an owner may remove themselves", async () => {
    const dora = await joined(client, 'dora@example.com', 'owner');
    const doraToken = await tokenOf('dora@example.com');
    const keyFileAdmin = (await me(owner)).id;
    const refused = await client.delete(`${ADMINS}/${keyFileAdmin}`, doraToken);
    expect(refused.status).toBe(403);
    expect(await errorCode(refused)).toBe('forbidden');
    expect((await client.delete(`${ADMINS}/${dora.id}`, doraToken)).status).toBe(204);
    expect((await client.get('/v1/admin/me', doraToken)).status).toBe(401);
    expect((await client.delete(`${ADMINS}/${dora.id}`, owner)).status).toBe(404);
    expect(await latest('admin.removed')).toMatchObject({
      actor: { type: 'admin', id: dora.id },
      target: { type: 'admins', id: dora.id },
    });

    const list = (await (await client.get(ADMINS, owner)).json()) as { data: AdminResource[]; meta: { total: number } };
    expect(list.data[0]!.id).toBe(keyFileAdmin);
    expect(list.data.map((admin) => admin.attributes.email)).not.toContain('dora@example.com');
    expect(list.meta.total).toBe(list.data.length);
  });

  it("a start makes the key file's admin an owner again, whoever demoted it", async () => {
    const eve = await joined(client, 'eve@example.com', 'owner');
    const eveToken = await tokenOf('eve@example.com');
    const keyFileAdmin = (await me(owner)).id;
    const demoted = await client.send(
      'PATCH',
      `${ADMINS}/${keyFileAdmin}`,
      roleDocument(keyFileAdmin, 'auditor'),
      eveToken,
    );
    expect(demoted.status).toBe(200);
    expect((await me(owner)).attributes.role).toBe('auditor');
    const restarted = await startTestApplication(backend, sharedStoreEnv(t));
    try {
      expect((await me(owner)).attributes.role).toBe('owner');
    } finally {
      await restarted.close();
    }
    expect((await client.delete(`${ADMINS}/${eve.id}`, owner)).status).toBe(204);
  });

  it("a key file giving another administrator's address stops the start, naming the file and the address, not the password", async () => {
    await joined(client, 'fay@example.com', 'support');
    const keyPath = t.env.ADMIN_KEY_PATH!;
    const original = await readFile(keyPath, 'utf8');
    const credentials = JSON.parse(original) as { email: string; password: string };
    await writeFile(keyPath, JSON.stringify({ ...credentials, email: 'Fay@Example.com' }));
    try {
      const refused = await startTestApplication(backend, sharedStoreEnv(t)).then(
        async (started) => {
          await started.close();
          throw new Error('the start went on');
        },
        (error: unknown) => error,
      );
      expect(refused).toBeInstanceOf(AdminKeyFileError);
      const message = (refused as Error).message;
      expect(message).toContain(keyPath);
      expect(message).toContain('ADMIN_KEY_PATH');
      expect(message).toContain("fay@example.com, which is another administrator's address");
      expect(message).not.toContain(credentials.password);
    } finally {
      await writeFile(keyPath, original);
    }
    // Nothing changed: the key file's admin keeps their address, and Fay hers.
    expect((await me(owner)).attributes.email).toBe(t.admin.email);
    expect((await me(await tokenOf('fay@example.com'))).attributes.email).toBe('fay@example.com');
  });

  it('the single-admin flows stay: the key file admin logs in and out as before', async () => {
    const session = await sessionOf(await client.login());
    expect((await client.delete(`/v1/admin/logout/${session.id}`, session.accessToken)).status).toBe(204);
    client.expectCleanLogs();
  });
});
