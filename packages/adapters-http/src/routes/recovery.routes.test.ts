import { beforeEach, describe, expect, it } from 'vitest';
import { MAIL_REQUEST_ACCEPTED } from '../presenters/account-mail.presenter';
import { createTestApp, expectNoSecrets, fromAddress, jsonInit, type TestApp } from '../testing';

let t: TestApp;
beforeEach(async () => {
  t = await createTestApp();
});

const post = (path: string, body: unknown, address = '203.0.113.7') =>
  t.app.request(path, jsonInit('POST', body), fromAddress(address));

/** The body of the latest message in the outbox, opened. */
async function latestMail() {
  const [latest] = (await t.deps.mail.list({ page: 1, size: 1 })).messages;
  return { message: latest!, text: (await t.deps.mail.read(latest!.id)).content!.text };
}
const tokenIn = (text: string) => text.match(/token=([\w-]+)/)![1]!;

describe.each([
  ['/v1/recover', 'recovery'],
  ['/v1/verify/resend', 'verification'],
] as const)('POST %s', (path, kind) => {
  it('answers a known and an unknown address with the same status and body, and only records the request', async () => {
    const user = await t.createUser({ emailVerified: false });
    const known = await post(path, { email: user.email });
    const unknown = await post(path, { email: 'nobody@example.com' }, '198.51.100.9');
    expect([known.status, unknown.status]).toEqual([202, 202]);
    expect(await known.json()).toEqual(MAIL_REQUEST_ACCEPTED);
    expect(await unknown.json()).toEqual(MAIL_REQUEST_ACCEPTED);
    expect((await t.deps.mail.list({ page: 1, size: 10 })).messages).toEqual([]);
    expect(await t.deps.mailRequests.resolveDue(10)).toBe(2);
    const { message } = await latestMail();
    expect(message).toMatchObject({ kind, recipient: user.email });
  });

  it.each([
    [{}, '/email'],
    [{ email: 42 }, '/email'],
    [{ email: 'not an address' }, '/email'],
    [{ email: 'a@example.com', extra: 1 }, '/extra'],
  ])('refuses %j with 422 pointing at %s', async (body, pointer) => {
    const response = await post(path, body);
    expect(response.status).toBe(422);
    expect((await response.json()).errors[0].source).toEqual({ pointer });
  });
});

describe('the per-address limit of the endpoints that send mail', () => {
  it('answers the 6th request in a minute from one address with 429 and Retry-After, whatever the address asked about', async () => {
    const user = await t.createUser();
    const statuses: number[] = [];
    for (let n = 0; n < 5; n += 1) statuses.push((await post('/v1/recover', { email: `x${n}@example.com` })).status);
    const known = await post('/v1/recover', { email: user.email });
    const unknown = await post('/v1/verify/resend', { email: 'nobody@example.com' });
    expect(statuses).toEqual([202, 202, 202, 202, 202]);
    expect([known.status, unknown.status]).toEqual([429, 429]);
    expect(known.headers.get('retry-after')).toBe('60');
    const [a, b] = [await known.json(), await unknown.json()];
    expect(a.errors[0].code).toBe('too_many_attempts');
    expect({ ...a.errors[0], id: undefined }).toEqual({ ...b.errors[0], id: undefined });
    expect((await post('/v1/recover', { email: user.email }, '198.51.100.9')).status).toBe(202);
    t.clock.advance(60);
    expect((await post('/v1/recover', { email: user.email })).status).toBe(202);
  });
});

describe('POST /v1/reset-password', () => {
  const NEW_PASSWORD = 'a brand new password';

  async function recoveryToken(email: string): Promise<string> {
    await post('/v1/recover', { email });
    await t.deps.mailRequests.resolveDue(10);
    return tokenIn((await latestMail()).text);
  }

  it('sets the password with the mailed token (204), once; the token and password appear in no answer or log', async () => {
    const user = await t.createUser();
    const token = await recoveryToken(user.email);
    const reset = await post('/v1/reset-password', { token, password: NEW_PASSWORD });
    expect(reset.status).toBe(204);
    const again = await post('/v1/reset-password', { token, password: NEW_PASSWORD });
    expect(again.status).toBe(400);
    await expectNoSecrets(again, [token, NEW_PASSWORD]);
    expect((await again.json()).errors[0].code).toBe('invalid_token');
    expect((await t.loginUser(user.email, NEW_PASSWORD)).response.status).toBe(200);
    expect((await latestMail()).message.kind).toBe('password_changed');
    expect(t.logger.text()).not.toContain(token);
    expect(t.logger.text()).not.toContain(NEW_PASSWORD);
  });

  it('a bad password → 422 and the token stays usable', async () => {
    const user = await t.createUser();
    const token = await recoveryToken(user.email);
    const refused = await post('/v1/reset-password', { token, password: 'short' });
    expect(refused.status).toBe(422);
    await expectNoSecrets(refused, [token]);
    expect((await refused.json()).errors[0].source).toEqual({ pointer: '/password' });
    expect((await post('/v1/reset-password', { token, password: NEW_PASSWORD })).status).toBe(204);
  });

  it.each([
    ['a wrong token', { token: 'test-token-99999999', password: NEW_PASSWORD }, 400],
    ['a malformed token', { token: 'x', password: NEW_PASSWORD }, 400],
    ['no token', { password: NEW_PASSWORD }, 422],
    ['a token of another type', { token: 42, password: NEW_PASSWORD }, 422],
  ])('%s → %d', async (_case, body, status) => {
    const response = await post('/v1/reset-password', body);
    expect(response.status).toBe(status);
    await expectNoSecrets(response, [NEW_PASSWORD]);
  });
});
