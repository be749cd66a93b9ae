import { describe, expect, it } from 'vitest';
import { expectError } from '../support/error-expectations';
import { mailedLink, mailedToken, outboxIds } from '../support/outbox';
import { scenarioApplication } from '../support/scenario';
import { BACKENDS } from '../support/test-application';
import { USER_PASSWORD } from '../support/wire';

let made = 0;
const freshEmail = (label: string) => `${label}-${(made += 1)}@example.com`;

describe.each(BACKENDS)('email change by the user on %s', (backend) => {
  const s = scenarioApplication(backend, { env: { MAIL_REQUESTS_PER_MINUTE: '1000' } });

  /** A verified user, signed in: their address and access token. */
  const signedIn = async () => {
    const email = freshEmail('mover');
    const user = await s.client.createUser({ email });
    return { id: user.id, email, token: (await s.client.userSession(email)).accessToken };
  };
  const ask = (token: string, email: string, current_password?: string) =>
    s.client.send('POST', '/v1/users/me/email', { email, current_password }, token);
  const verify = (token: string) => s.client.send('POST', '/v1/verify', { token });

  it('202 mails a link to the new address (/account/confirm-email) and a notice to the old; the email changes on confirmation', async () => {
    const me = await signedIn();
    const target = freshEmail('target');
    const asked = await ask(me.token, target, USER_PASSWORD);
    expect(asked.status).toBe(202);
    expect(await outboxIds(s.client, 'email_change_notice', me.email)).toHaveLength(1);
    const link = await mailedLink(s.client, 'email_change', target);
    expect(link.pathname).toBe('/account/confirm-email');
    // Nothing changes before the confirmation.
    expect((await s.client.login(me.email, USER_PASSWORD, {}, '/v1/login')).status).toBe(200);
    expect((await verify(link.searchParams.get('token') ?? '')).status).toBe(204);
    expect((await s.client.login(target, USER_PASSWORD, {}, '/v1/login')).status).toBe(200);
    await expectError(await s.client.login(me.email, USER_PASSWORD, {}, '/v1/login'), 401, 'invalid_credentials');
    const user = await s.client.get(`/v1/admin/users/${me.id}`, await s.client.adminToken());
    expect(((await user.json()) as { data: { attributes: Record<string, unknown> } }).data.attributes).toMatchObject({
      email: target,
      email_verified: expect.any(String),
    });
    // Its sessions ended with the old address.
    await expectError(await s.client.get('/v1/users/me', me.token), 401, 'invalid_token');
  });

  it('answers an address another account has exactly as a free one; the clash is a 409 at confirmation, nothing changed', async () => {
    const me = await signedIn();
    const taken = freshEmail('taken');
    const free = freshEmail('free');
    await s.client.createUser({ email: taken });
    const [toTaken, toFree] = [await ask(me.token, taken, USER_PASSWORD), await ask(me.token, free, USER_PASSWORD)];
    expect([toTaken.status, toFree.status]).toEqual([202, 202]);
    expect(await toTaken.text()).toBe(await toFree.text());
    const token = await mailedToken(s.client, 'email_change', taken);
    // The confirmation sent a token, no email: the error points at no member.
    await expectError(await verify(token), 409, 'email_taken');
    expect((await s.client.login(me.email, USER_PASSWORD, {}, '/v1/login')).status).toBe(200);
    // The refused confirmation did not use the link up: the other one still works.
    expect((await verify(await mailedToken(s.client, 'email_change', free))).status).toBe(204);
  });

  it('refuses a wrong or missing current password as PATCH /v1/users/me does (422), mailing nothing', async () => {
    const me = await signedIn();
    const target = freshEmail('never');
    for (const current_password of ['a wrong password', undefined]) {
      const response = await ask(me.token, target, current_password);
      expect(response.status).toBe(422);
      const { errors } = (await response.json()) as { errors: { code: string; detail: string }[] };
      expect(errors.map((error) => error.code)).toEqual(['invalid_attribute']);
    }
    const patched = await s.client.send(
      'PATCH',
      '/v1/users/me',
      { data: { type: 'users', attributes: { password: 'another password', current_password: 'a wrong password' } } },
      me.token,
    );
    const wrong = await ask(me.token, target, 'a wrong password');
    const detail = (response: Response) =>
      response.json().then((body) => (body as { errors: { detail: string }[] }).errors[0]?.detail);
    expect(await detail(wrong)).toBe(await detail(patched));
    expect(await outboxIds(s.client, 'email_change', target)).toHaveLength(0);
  });

  it('needs a user token: none → 401, an admin token → 403', async () => {
    await expectError(
      await s.client.send('POST', '/v1/users/me/email', { email: freshEmail('x'), current_password: 'x' }),
      401,
      'missing_token',
    );
    await expectError(await ask(await s.client.adminToken(), freshEmail('x'), USER_PASSWORD), 403, 'forbidden');
  });

  it('records user.email_change_requested and user.email_changed, no token in them; admin changes through PATCH stay immediate', async () => {
    const me = await signedIn();
    const target = freshEmail('audited');
    await ask(me.token, target, USER_PASSWORD);
    const token = await mailedToken(s.client, 'email_change', target);
    await verify(token);
    const events = await s.client.get('/v1/admin/audit-events?page[size]=100', await s.client.adminToken());
    const text = await events.text();
    expect(text).not.toContain(token);
    expect(text).toContain('user.email_change_requested');
    expect(text).toContain('user.email_changed');
    const direct = freshEmail('direct');
    const patched = await s.client.send(
      'PATCH',
      `/v1/admin/users/${me.id}`,
      { data: { type: 'users', attributes: { email: direct } } },
      await s.client.adminToken(),
    );
    expect(((await patched.json()) as { data: { attributes: { email: string } } }).data.attributes.email).toBe(direct);
  });

  it('a password change through PATCH /v1/users/me sends a password_changed notice to the account', async () => {
    const me = await signedIn();
    const changed = await s.client.send(
      'PATCH',
      '/v1/users/me',
      { data: { type: 'users', attributes: { password: 'another password 2', current_password: USER_PASSWORD } } },
      me.token,
    );
    expect(changed.status).toBe(200);
    const [id] = await outboxIds(s.client, 'password_changed', me.email);
    const message = await s.client.get(`/v1/admin/mail/${id}`, await s.client.adminToken());
    const body = await message.text();
    expect(body).toContain(me.email);
    expect(body).not.toContain('another password 2');
  });
});
