import { MailDelivery, type User } from '@uas/domain';
import { FakeSecretBox, RecordingMailer, SequentialIds } from '@uas/domain/testing';
import type * as v from 'valibot';
import { beforeEach, describe, expect, it } from 'vitest';
import type { mailMessageDocumentSchema, mailMessageListDocumentSchema } from '../presenters/mail-message.presenter';
import { ADMIN, bearer, createTestApp, expectNoSecrets, jsonInit, loginDocument, type TestApp } from '../testing';

type MailList = v.InferOutput<typeof mailMessageListDocumentSchema>;
type MailDocument = v.InferOutput<typeof mailMessageDocumentSchema>;

let t: TestApp;
let admin: Record<string, string>;

beforeEach(async () => {
  t = await createTestApp();
  admin = bearer((await t.loginAdmin()).accessToken);
});

const get = (path: string, headers = admin) => t.app.request(path, { headers });

describe('GET /v1/admin/mail', () => {
  it('lists messages newest first, paged like users, and never a body', async () => {
    for (const n of [1, 2, 3]) {
      await t.deps.mail.sendTest(`person${n}@example.com`);
      t.clock.advance(1);
    }
    const response = await get('/v1/admin/mail?page[number]=1&page[size]=2');
    expect(response.status).toBe(200);
    await expectNoSecrets(response, ['This is a test message', 'If you can read it']);
    const body = (await response.json()) as MailList;
    expect(body.meta).toEqual({ total: 3 });
    expect(body.links.next).toBe('/v1/admin/mail?page[number]=2&page[size]=2');
    expect(body.data.map((message) => message.attributes.recipient)).toEqual([
      'person3@example.com',
      'person2@example.com',
    ]);
    expect(body.data[0]).toEqual({
      type: 'mail-messages',
      id: expect.any(String),
      attributes: {
        kind: 'test',
        recipient: 'person3@example.com',
        subject: 'Test message from the user-account service',
        status: 'queued',
        attempts: 0,
        created: '2026-01-01T00:00:02.000Z',
        next_attempt_at: '2026-01-01T00:00:02.000Z',
        last_error: null,
        delivered_at: null,
      },
    });
  });

  it('refuses a bad page with 400 naming the parameter', async () => {
    const response = await get('/v1/admin/mail?page[size]=0');
    expect(response.status).toBe(400);
    expect((await response.json()).errors[0].source).toEqual({ parameter: 'page[size]' });
  });
});

describe('GET /v1/admin/mail/{id}', () => {
  it('shows the body while the message is queued, and not once it is delivered', async () => {
    const { id } = await t.deps.mail.sendTest('ann@example.com');
    const queued = (await (await get(`/v1/admin/mail/${id}`)).json()) as MailDocument;
    expect(queued.data.attributes.body).toEqual({
      text: 'This is a test message to ann@example.com.\n\nIf you can read it, the service can send mail.\n',
      html: '<p>This is a test message to <strong>ann@example.com</strong>.</p>\n<p>If you can read it, the service can send mail.</p>\n',
    });
    const mailer = new RecordingMailer();
    const delivery = new MailDelivery({
      queue: t.repositories.mail,
      box: new FakeSecretBox(),
      mailer,
      clock: t.clock,
      ids: new SequentialIds(),
      logger: t.logger,
    });
    await delivery.deliverDue(10);
    const response = await get(`/v1/admin/mail/${id}`);
    await expectNoSecrets(response, ['This is a test message']);
    const delivered = (await response.json()) as MailDocument;
    expect(delivered.data.attributes).toMatchObject({
      status: 'delivered',
      attempts: 1,
      delivered_at: '2026-01-01T00:00:00.000Z',
      next_attempt_at: null,
      body: null,
    });
  });

  it('404s for an unknown or malformed id, 401s without a token and 403s with a user token', async () => {
    const user: User = await t.createUser({ email: 'ann@example.com' });
    const userToken = (await t.loginUser(user.email, 'user-password-1')).accessToken;
    expect((await get('/v1/admin/mail/00000000-0000-4000-8000-00000000dead')).status).toBe(404);
    expect((await get('/v1/admin/mail/not-an-id')).status).toBe(404);
    expect((await get('/v1/admin/mail', {})).status).toBe(401);
    expect((await get('/v1/admin/mail', bearer(userToken))).status).toBe(403);
  });
});

describe("GET /v1/admin/mail/{id} of an administrator's invitation", () => {
  /** Signs in a new admin of `role`: the key file's admin is an owner. */
  const signedIn = async (role: 'owner' | 'admin') => {
    const email = `${role}-2@example.com`;
    await t.repositories.admins.insert({ ...t.admin, id: crypto.randomUUID(), email, role });
    const login = await t.app.request('/v1/admin/login', jsonInit('POST', loginDocument(email, ADMIN.password)));
    return bearer((await login.json()).data.attributes.access_token);
  };

  it("opens for owners only: an admin, who may open users' messages, gets 403 forbidden", async () => {
    await t.deps.adminAccounts.invite({ email: 'new-owner@example.com', role: 'owner' });
    const [message] = (await t.deps.mail.list({ page: 1, size: 1 })).messages;
    expect(message?.kind).toBe('admin_invitation');
    const asAdmin = await signedIn('admin');
    const refused = await get(`/v1/admin/mail/${message!.id}`, asAdmin);
    expect(refused.status).toBe(403);
    await expectNoSecrets(refused, ['/account/admin-invitation']);
    expect((await refused.json()).errors[0]).toMatchObject({ code: 'forbidden' });
    const { id: testId } = await t.deps.mail.sendTest('ann@example.com');
    expect((await get(`/v1/admin/mail/${testId}`, asAdmin)).status).toBe(200);

    for (const owner of [admin, await signedIn('owner')]) {
      const opened = (await (await get(`/v1/admin/mail/${message!.id}`, owner)).json()) as MailDocument;
      expect(opened.data.attributes.body?.text).toContain('/account/admin-invitation?token=');
    }
  });
});
