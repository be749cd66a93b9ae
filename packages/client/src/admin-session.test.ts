import { ADMIN, createTestApp, TEST_POLICY } from '@uas/adapters-http/testing';
import { FakePasskeyCeremonies } from '@uas/domain/testing';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { AdminSession } from './admin-session';
import { ApiError, unwrap } from '@uas/app-client';

/** The client over the real HTTP app (in-memory ports, a manual clock), with the browser's timers faked to follow it. */
async function setUp() {
  const t = await createTestApp();
  vi.setSystemTime(t.clock.now());
  const ended = vi.fn();
  const session = new AdminSession({
    refreshToken: 'memory',
    baseUrl: 'http://service.test',
    fetch: (request) => Promise.resolve(t.app.request(request)),
    onEnded: ended,
  });
  /** Moves the service's clock and the client's timers together. */
  const elapse = async (seconds: number) => {
    t.clock.advance(seconds);
    await vi.advanceTimersByTimeAsync(seconds * 1000);
  };
  return { t, session, ended, elapse };
}

describe('AdminSession', () => {
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('logs in and sends its access token with every call', async () => {
    const { t, session } = await setUp();
    const user = await t.createUser({ email: 'listed@example.com' });
    await session.login(ADMIN.email, ADMIN.password);
    expect(session.admin?.email).toBe(ADMIN.email);
    const { data } = await unwrap(session.api.GET('/v1/admin/users', { params: { query: { 'page[size]': 5 } } }));
    expect(data.meta.total).toBe(1);
    expect(data.data[0]?.id).toBe(user.id);
  });

  it('answers a login that needs a second step with its challenge, then signs in with the code', async () => {
    const { t, session } = await setUp();
    const { secret } = await t.enrol.totp('admin', t.admin.id, t.clock.now());
    const challenge = await session.login(ADMIN.email, ADMIN.password);
    expect(challenge).toMatchObject({ type: 'mfa_challenges', attributes: { kinds: ['totp'] } });
    expect(session.admin).toBeNull();
    await session.completeSecondStep(challenge!.id, { code: t.codes.codeAt(secret, t.clock.now()) });
    expect(session.admin?.email).toBe(ADMIN.email);
    expect((await session.api.GET('/v1/admin/users')).response.status).toBe(200);
  });

  it('refreshes a minute before the access token expires, so calls never meet an expired one', async () => {
    const { session, elapse } = await setUp();
    await session.login(ADMIN.email, ADMIN.password);
    const first = session.accessToken;
    await elapse(TEST_POLICY.accessTokenSeconds - 60);
    expect(session.accessToken).not.toBe(first);
    await elapse(59);
    expect((await session.api.GET('/v1/admin/users')).response.status).toBe(200);
  });

  it('after a 401 refreshes once and sends the call again', async () => {
    const { t, session } = await setUp();
    await session.login(ADMIN.email, ADMIN.password);
    const first = session.accessToken;
    t.clock.advance(TEST_POLICY.accessTokenSeconds + 1); // the service's clock only: the timer has not fired
    const { response } = await session.api.POST('/v1/admin/users', {
      body: { data: { type: 'users', attributes: { email: 'retried@example.com', password: 'long enough 1' } } },
    });
    expect(response.status).toBe(201);
    expect(session.accessToken).not.toBe(first);
  });

  it('gives up after one refresh that fails: the session has ended', async () => {
    const { t, session, ended } = await setUp();
    await session.login(ADMIN.email, ADMIN.password);
    t.clock.advance(TEST_POLICY.refreshTokenSeconds + 1);
    const failure = await unwrap(session.api.GET('/v1/admin/users')).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(ApiError);
    expect((failure as ApiError).status).toBe(401);
    expect(ended).toHaveBeenCalledOnce();
    expect(session.admin).toBeNull();
  });

  it('logs out: the server ends the session and the client forgets it', async () => {
    const { session } = await setUp();
    await session.login(ADMIN.email, ADMIN.password);
    const token = session.accessToken;
    await session.logout();
    expect(session.admin).toBeNull();
    expect(await session.refresh()).toBe(false);
    expect(token).not.toBeNull();
  });

  it('answers the second step an admin with a factor owes, and signs in only once it is answered', async () => {
    const { t, session } = await setUp();
    const { secret } = await t.enrol.totp('admin', t.admin.id, t.clock.now());
    const challenge = await session.login(ADMIN.email, ADMIN.password);
    expect(challenge?.attributes.kinds).toEqual(['totp']);
    expect(session.admin).toBeNull();
    const wrong = await session.completeSecondStep(challenge?.id ?? '', { code: '000000' }).catch((e: unknown) => e);
    expect((wrong as ApiError).errors[0]?.code).toBe('invalid_second_factor');
    await session.completeSecondStep(challenge?.id ?? '', { code: t.codes.codeAt(secret, t.clock.now()) });
    expect(session.admin?.email).toBe(ADMIN.email);
    expect((await session.api.GET('/v1/admin/users')).response.status).toBe(200);
  });

  it('signs in with a passkey alone, over options of its own', async () => {
    const { t, session } = await setUp();
    const { credential } = await t.enrol.passkey('admin', t.admin.id, t.clock.now());
    const options = await session.passkeyOptions();
    await session.loginWithPasskey(FakePasskeyCeremonies.assertion(credential, String(options.challenge)));
    expect(session.admin?.email).toBe(ADMIN.email);
    expect((await session.api.GET('/v1/admin/users')).response.status).toBe(200);
  });
});
