import type * as v from 'valibot';
import { beforeEach, describe, expect, it } from 'vitest';
import type { invitationDocumentSchema, invitationListDocumentSchema } from '../presenters/invitation.presenter';
import { bearer, createTestApp, expectNoSecrets, jsonInit, TEST_PUBLIC_URL, type TestApp } from '../testing';

type InvitationList = v.InferOutput<typeof invitationListDocumentSchema>;
type InvitationDocument = v.InferOutput<typeof invitationDocumentSchema>;

const PASSWORD = 'a good new password';

let t: TestApp;
let admin: Record<string, string>;

beforeEach(async () => {
  t = await createTestApp();
  admin = bearer((await t.loginAdmin()).accessToken);
});

const invitationsDocument = (attributes: Record<string, unknown>, type = 'invitations') => ({
  data: { type, attributes },
});
const invite = (attributes: Record<string, unknown>, type?: string) =>
  t.app.request('/v1/admin/invitations', jsonInit('POST', invitationsDocument(attributes, type), admin));
const accept = (body: Record<string, unknown>) => t.app.request('/v1/invitations/accept', jsonInit('POST', body));

/** The token of the newest message's link, read as an admin reads the outbox. */
async function newestToken(): Promise<string> {
  const [newest] = (await t.deps.mail.list({ page: 1, size: 1 })).messages;
  const text = (await t.deps.mail.read(newest!.id)).content!.text;
  const link = new URL(/https:\S+/.exec(text)![0]);
  expect(link.href.startsWith(`${TEST_PUBLIC_URL}account/accept-invitation?token=`)).toBe(true);
  return link.searchParams.get('token')!;
}

async function invited(email = 'ann@example.com') {
  const response = await invite({ email, name: 'Ann' });
  expect(response.status).toBe(201);
  return { invitation: ((await response.json()) as InvitationDocument).data, token: await newestToken() };
}

describe('POST /v1/admin/invitations', () => {
  it('answers 201 with the pending invitation; the user exists, unverified, and cannot log in', async () => {
    const response = await invite({ email: 'Ann@Example.com', name: 'Ann', app: { plan: 'pro' } });
    expect(response.status).toBe(201);
    const token = await newestToken();
    await expectNoSecrets(response, [token]);
    const { data } = (await response.json()) as InvitationDocument;
    expect(data).toMatchObject({
      type: 'invitations',
      attributes: { email: 'ann@example.com', name: 'Ann', invited_by: t.admin.id, sent: data.attributes.created },
    });
    const user = await t.app.request(`/v1/admin/users/${data.attributes.user_id}`, { headers: admin });
    expect((await user.json()).data.attributes).toMatchObject({ email_verified: null, app: { plan: 'pro' } });
    const wrong = await t.loginUser('ann@example.com', 'not the password');
    const blank = await t.loginUser('ann@example.com', '!');
    expect([wrong.response.status, blank.response.status]).toEqual([401, 401]);
    expect(await blank.response.json()).toEqual(await wrong.response.json());
  });

  it.each([
    ['an address with an account', { email: 'taken@example.com' }, 409, 'email_taken'],
    ['no address', { name: 'Ann' }, 422, 'invalid_attribute'],
    ['a password', { email: 'ann@example.com', password: 'not here' }, 422, 'invalid_attribute'],
    ['another type', { email: 'ann@example.com' }, 409, 'resource_conflict', 'users'],
  ])('refuses %s', async (_case, attributes, status, code, type?: string) => {
    await t.createUser({ email: 'taken@example.com' });
    const response = await invite(attributes, type);
    expect(response.status).toBe(status);
    expect((await response.json()).errors[0].code).toBe(code);
  });

  it('refuses a request without an admin token', async () => {
    const body = jsonInit('POST', invitationsDocument({ email: 'ann@example.com' }));
    expect((await t.app.request('/v1/admin/invitations', body)).status).toBe(401);
  });
});

describe('GET /v1/admin/invitations', () => {
  it('lists the pending ones oldest first, paged like users', async () => {
    for (const n of [1, 2, 3]) {
      await invited(`p${n}@example.com`);
      t.clock.advance(1);
    }
    const { token } = await invited('p4@example.com');
    expect((await accept({ token, password: PASSWORD })).status).toBe(204);
    const response = await t.app.request('/v1/admin/invitations?page[number]=2&page[size]=2', { headers: admin });
    expect(response.status).toBe(200);
    const body = (await response.json()) as InvitationList;
    expect(body.meta).toEqual({ total: 3 });
    expect(body.links).toEqual({
      first: '/v1/admin/invitations?page[number]=1&page[size]=2',
      last: '/v1/admin/invitations?page[number]=2&page[size]=2',
      prev: '/v1/admin/invitations?page[number]=1&page[size]=2',
      next: null,
    });
    expect(body.data.map((invitation) => invitation.attributes.email)).toEqual(['p3@example.com']);
    const bad = await t.app.request('/v1/admin/invitations?page[size]=101', { headers: admin });
    expect(bad.status).toBe(400);
    expect((await bad.json()).errors[0].source).toEqual({ parameter: 'page[size]' });
  });
});

describe('POST /v1/invitations/accept', () => {
  it('sets the password and verifies the address: the user logs in; the token never shows', async () => {
    const { invitation, token } = await invited();
    const response = await accept({ token, password: PASSWORD });
    expect(response.status).toBe(204);
    const login = await t.loginUser('ann@example.com', PASSWORD);
    expect(login.response.status).toBe(200);
    const user = await t.app.request(`/v1/admin/users/${invitation.attributes.user_id}`, { headers: admin });
    expect((await user.json()).data.attributes.email_verified).toBe(t.clock.now().toISOString());
    expect(t.logger.text()).not.toContain(token);
    const audit = await t.app.request('/v1/admin/audit-events?page[size]=100', { headers: admin });
    await expectNoSecrets(audit, [token, PASSWORD]);
  });

  it('checks the password first: a 422 leaves the link usable', async () => {
    const { token } = await invited();
    const short = await accept({ token, password: 'short' });
    expect(short.status).toBe(422);
    await expectNoSecrets(short, [token]);
    expect((await short.json()).errors[0].source).toEqual({ pointer: '/password' });
    expect((await accept({ token })).status).toBe(422);
    expect((await accept({ token, password: PASSWORD })).status).toBe(204);
  });

  it('answers a used, revoked, resent-over, wrong or missing token with one 400 invalid_token', async () => {
    const used = await invited('used@example.com');
    await accept({ token: used.token, password: PASSWORD });
    const revoked = await invited('revoked@example.com');
    await t.app.request(`/v1/admin/invitations/${revoked.invitation.id}`, { method: 'DELETE', headers: admin });
    const resent = await invited('resent@example.com');
    const again = await t.app.request(`/v1/admin/invitations/${resent.invitation.id}/resend`, {
      method: 'POST',
      headers: admin,
    });
    expect(again.status).toBe(200);
    const bodies = [];
    for (const token of [used.token, revoked.token, resent.token, 'x'.repeat(40), undefined, 42]) {
      const response = await accept({ token, password: PASSWORD });
      expect(response.status).toBe(400);
      bodies.push(JSON.stringify((await response.json()).errors.map((e: { code: string }) => e.code)));
    }
    expect(new Set(bodies)).toEqual(new Set([JSON.stringify(['invalid_token'])]));
    expect((await accept({ token: await newestToken(), password: PASSWORD })).status).toBe(204);
  });
});

describe('DELETE /v1/admin/invitations/{id} and POST …/resend', () => {
  it('revoke: 204, the user is gone; again, or for an unknown id, 404', async () => {
    const { invitation } = await invited();
    const revoke = () => t.app.request(`/v1/admin/invitations/${invitation.id}`, { method: 'DELETE', headers: admin });
    expect((await revoke()).status).toBe(204);
    const user = await t.app.request(`/v1/admin/users/${invitation.attributes.user_id}`, { headers: admin });
    expect(user.status).toBe(404);
    expect((await revoke()).status).toBe(404);
    const resend = await t.app.request(`/v1/admin/invitations/${invitation.id}/resend`, {
      method: 'POST',
      headers: admin,
    });
    expect(resend.status).toBe(404);
  });

  it('resend: 200 with the new expiry, and a new message whose link works', async () => {
    const { invitation } = await invited();
    t.clock.advance(60);
    const response = await t.app.request(`/v1/admin/invitations/${invitation.id}/resend`, {
      method: 'POST',
      headers: admin,
    });
    expect(response.status).toBe(200);
    const token = await newestToken();
    await expectNoSecrets(response, [token]);
    const { data } = (await response.json()) as InvitationDocument;
    expect(data.attributes.sent).toBe(t.clock.now().toISOString());
    expect((await accept({ token, password: PASSWORD })).status).toBe(204);
  });
});
