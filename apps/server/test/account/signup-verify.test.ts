import { describe, expect, it } from 'vitest';
import { usersDocument } from '@uas/adapters-http/testing';
import { expectError } from '../support/error-expectations';
import { mailedLink, mailedToken, outboxIds } from '../support/outbox';
import { scenarioApplication } from '../support/scenario';
import { BACKENDS } from '../support/test-application';

const PASSWORD = 'sign-up password 1';
/** Plenty of sign-ups come from one test address: the per-address limit has its own scenario below. */
const MANY_REQUESTS = { MAIL_REQUESTS_PER_MINUTE: '1000' };

let made = 0;
const freshEmail = (label: string) => `${label}-${(made += 1)}@example.com`;

describe.each(BACKENDS)('sign-up and verification on %s', (backend) => {
  const s = scenarioApplication(backend, { env: MANY_REQUESTS });
  const signUp = (attributes: Record<string, unknown>, address?: string) =>
    s.client.request(
      '/v1/signup',
      {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify(usersDocument(attributes)),
      },
      address === undefined ? {} : { address },
    );
  const login = (email: string, password = PASSWORD) => s.client.login(email, password, {}, '/v1/login');
  const verify = (token: unknown) => s.client.send('POST', '/v1/verify', { token });

  it('answers a new and a registered address with the same status, headers and body; only the new one gets an account', async () => {
    const registered = freshEmail('known');
    await s.client.createUser({ email: registered });
    const fresh = freshEmail('new');
    const [known, unknown] = [
      await signUp({ email: registered, password: PASSWORD }),
      await signUp({ email: fresh, password: PASSWORD }),
    ];
    expect(known.status).toBe(202);
    expect(unknown.status).toBe(202);
    expect(await known.text()).toBe(await unknown.text());
    const headers = (response: Response) =>
      [...response.headers.entries()].filter(([name]) => name !== 'x-request-id' && name !== 'date');
    expect(headers(known)).toEqual(headers(unknown));
    // The owner is told; the newcomer gets a link; no second account.
    expect(await outboxIds(s.client, 'signup_existing', registered)).toHaveLength(1);
    expect(await outboxIds(s.client, 'verification', fresh)).toHaveLength(1);
    expect(await outboxIds(s.client, 'verification', registered)).toHaveLength(0);
    const users = await s.client.get(`/v1/admin/users?search[email]=${registered}`, await s.client.adminToken());
    expect(((await users.json()) as { meta: { total: number } }).meta.total).toBe(1);
  });

  it('with EMAIL_VERIFICATION=required the account logs in only once its link is followed; the link works once', async () => {
    const email = freshEmail('verify');
    expect((await signUp({ email, password: PASSWORD, name: 'Newcomer', metadata: { locale: 'fr' } })).status).toBe(
      202,
    );
    await expectError(await login(email), 403, 'email_not_verified');
    await expectError(await login(email, 'a wrong password'), 401, 'invalid_credentials');
    const link = await mailedLink(s.client, 'verification', email);
    expect(link.pathname).toBe('/account/verify');
    const token = link.searchParams.get('token') ?? '';
    expect(token.length).toBeGreaterThanOrEqual(22); // at least 128 random bits
    expect((await verify(token)).status).toBe(204);
    const session = await login(email);
    expect(session.status).toBe(200);
    await expectError(await verify(token), 400, 'invalid_token');
    const me = await s.client.get('/v1/users/me', (await s.client.userSession(email, PASSWORD)).accessToken);
    expect((await me.json()) as unknown).toMatchObject({
      data: {
        attributes: {
          email,
          name: 'Newcomer',
          metadata: { locale: 'fr' },
          app: {},
          active: 1,
          email_verified: expect.any(String),
        },
      },
    });
  });

  it.each([
    ['app', { plan: 'pro' }],
    ['active', 1],
    ['email_verified', true],
  ])('refuses %s with 403, whatever else is wrong, and makes nothing', async (name, value) => {
    const email = freshEmail('forbidden');
    await expectError(await signUp({ email, password: 'short', [name]: value }), 403, 'forbidden');
    expect(await outboxIds(s.client, 'verification', email)).toHaveLength(0);
  });

  it('refuses a bad body as an admin create does: 422 per attribute, 409 for another type', async () => {
    const response = await signUp({ email: 'not an address', password: 'short', extra: 1 });
    expect(response.status).toBe(422);
    const { errors } = (await response.json()) as { errors: { source: { pointer: string } }[] };
    expect(errors.map((error) => error.source.pointer).sort()).toEqual([
      '/data/attributes/email',
      '/data/attributes/extra',
      '/data/attributes/password',
    ]);
    const other = await s.client.send('POST', '/v1/signup', {
      data: { type: 'admins', attributes: { email: freshEmail('x'), password: PASSWORD } },
    });
    await expectError(other, 409, 'resource_conflict', { pointer: '/data/type' });
  });

  it('gives a wrong or malformed token one answer, 400 invalid_token (a body without a string token is a 422)', async () => {
    for (const token of ['x'.repeat(43), 'short', 'a'.repeat(200), 'not/a+token=='])
      await expectError(await verify(token), 400, 'invalid_token');
    await expectError(await s.client.send('POST', '/v1/verify', {}), 422, 'invalid_attribute', { pointer: '/token' });
    await expectError(await verify(42), 422, 'invalid_attribute', { pointer: '/token' });
  });

  it('records user.signed_up and user.email_verified, with the user as actor and no token', async () => {
    const email = freshEmail('audited');
    await signUp({ email, password: PASSWORD });
    const token = await mailedToken(s.client, 'verification', email);
    await verify(token);
    const response = await s.client.get('/v1/admin/audit-events?page[size]=100', await s.client.adminToken());
    const text = await response.text();
    expect(text).not.toContain(token);
    const { data } = JSON.parse(text) as {
      data: { attributes: { action: string; actor: { type: string }; target: { id: string } | null } }[];
    };
    const mine = data.filter(
      (event) => event.attributes.action === 'user.signed_up' || event.attributes.action === 'user.email_verified',
    );
    expect(mine.map((event) => event.attributes.action)).toEqual(
      expect.arrayContaining(['user.signed_up', 'user.email_verified']),
    );
    expect(mine.every((event) => event.attributes.actor.type === 'user')).toBe(true);
  });
});

describe.each(BACKENDS)('sign-up limits on %s', (backend) => {
  const s = scenarioApplication(backend, { fresh: 'each' });
  const signUp = (email: string, address: string) =>
    s.client.request(
      '/v1/signup',
      {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify(usersDocument({ email, password: PASSWORD })),
      },
      { address },
    );

  it('answers 429 with Retry-After past 5 requests a minute from one client address, whatever address they name', async () => {
    const statuses: number[] = [];
    for (let n = 0; n < 5; n += 1) statuses.push((await signUp(freshEmail('limited'), '198.51.100.7')).status);
    expect(statuses).toEqual([202, 202, 202, 202, 202]);
    const refused = await signUp(freshEmail('limited'), '198.51.100.7');
    expect(refused.headers.get('retry-after')).toMatch(/^\d+$/);
    await expectError(refused, 429, 'too_many_attempts');
    expect((await signUp(freshEmail('other'), '198.51.100.8')).status).toBe(202);
  });
});

describe.each(['invite-only', 'closed'])('SIGNUP=%s', (mode) => {
  const s = scenarioApplication('sqlite', { env: { SIGNUP: mode } });
  it('refuses every sign-up with 403 signup_disabled, and makes nothing', async () => {
    const email = freshEmail('closed');
    await expectError(
      await s.client.send('POST', '/v1/signup', usersDocument({ email, password: PASSWORD })),
      403,
      'signup_disabled',
    );
    expect(await outboxIds(s.client, 'verification', email)).toHaveLength(0);
  });
});
