import { createTestApp, TEST_POLICY } from '@uas/adapters-http/testing';
import { FakePasskeyCeremonies } from '@uas/domain/testing';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ApiError } from './api-error.ts';
import { AppClient } from './app-client.ts';
import type { RefreshTokenStore } from './refresh-token-store.ts';

const USER = { email: 'app-user@example.com', password: 'app user password' };

/**
 * The client over the real HTTP app (in-memory ports, a manual clock), with the browser's timers
 * faked to follow it; every request it sends is counted by method and path.
 */
async function setUp(refreshTokens?: RefreshTokenStore) {
  const t = await createTestApp();
  await t.createUser(USER);
  vi.setSystemTime(t.clock.now());
  const sent: string[] = [];
  const ended = vi.fn();
  const fetch = (request: Request) => {
    sent.push(`${request.method} ${new URL(request.url).pathname}`);
    return Promise.resolve(t.app.request(request));
  };
  const client = new AppClient({
    baseUrl: 'http://service.test',
    fetch,
    onSessionEnded: ended,
    ...(refreshTokens ? { refreshTokens } : {}),
  });
  const elapse = async (seconds: number) => {
    t.clock.advance(seconds);
    await vi.advanceTimersByTimeAsync(seconds * 1000);
  };
  const refreshes = () => sent.filter((line) => line === 'POST /v1/refresh').length;
  return { t, client, fetch, ended, elapse, refreshes };
}

/** A store the test can look into: the app's own choice of place, as a storage adapter would be. */
function mapStore() {
  const store = new Map<string, string>();
  const refreshTokens: RefreshTokenStore = {
    get: () => store.get('token') ?? null,
    set: (token) => void (token === null ? store.delete('token') : store.set('token', token)),
  };
  return { store, refreshTokens };
}

describe('AppClient', () => {
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('logs in, reads the account, and sends the bearer token through its fetch', async () => {
    const { client } = await setUp();
    await client.login(USER.email, USER.password);
    expect((await client.me()).attributes.email).toBe(USER.email);
    const response = await client.fetch('http://service.test/v1/users/me/sessions');
    expect(response.status).toBe(200);
  });

  it('answers a login that needs a second step with its challenge, then signs in with the code', async () => {
    const { client, t } = await setUp();
    const user = await t.deps.users.create({ email: 'mfa-user@example.com', password: USER.password });
    const { secret } = await t.enrol.totp('user', user.id, t.clock.now());
    const challenge = await client.login(user.email, USER.password);
    expect(challenge).toMatchObject({ type: 'mfa_challenges', attributes: { kinds: ['totp'] } });
    expect(client.accessToken).toBeNull();
    const wrong = await client.completeSecondStep(challenge!.id, { code: '000000' }).catch((error: unknown) => error);
    expect((wrong as ApiError).errors[0]?.code).toBe('invalid_second_factor');
    await client.completeSecondStep(challenge!.id, { code: t.codes.codeAt(secret, t.clock.now()) });
    expect((await client.me()).attributes.email).toBe(user.email);
  });

  it('signs in with a passkey alone over its options', async () => {
    const { client, t } = await setUp();
    const user = await t.deps.users.create({ email: 'passkey-user@example.com', password: USER.password });
    const { credential } = await t.enrol.passkey('user', user.id, t.clock.now());
    const options = await client.passkeyOptions();
    await client.loginWithPasskey(FakePasskeyCeremonies.assertion(credential, String(options.challenge)));
    expect((await client.me()).attributes.email).toBe(user.email);
  });

  it('surfaces a refusal as an ApiError with the JSON:API error code', async () => {
    const { client } = await setUp();
    const failure = await client.login(USER.email, 'not the password').catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(ApiError);
    expect((failure as ApiError).status).toBe(401);
    expect((failure as ApiError).errors[0]?.code).toBe('invalid_credentials');
    expect(client.accessToken).toBeNull();
  });

  it('refreshes shortly before the access token expires, so calls never meet an expired one', async () => {
    const { client, elapse, refreshes } = await setUp();
    await client.login(USER.email, USER.password);
    const first = client.accessToken;
    await elapse(TEST_POLICY.accessTokenSeconds - 60);
    expect(client.accessToken).not.toBe(first);
    expect(refreshes()).toBe(1);
    await elapse(59);
    expect((await client.me()).attributes.email).toBe(USER.email);
  });

  it('times the refresh by the token’s own lifetime: a device clock hours ahead neither loops nor lets it lapse', async () => {
    const { client, t, elapse, refreshes } = await setUp();
    vi.setSystemTime(t.clock.now().getTime() + 3 * 3600_000);
    await client.login(USER.email, USER.password);
    await elapse(TEST_POLICY.accessTokenSeconds - 120);
    expect(refreshes()).toBe(0);
    expect((await client.me()).attributes.email).toBe(USER.email);
    await elapse(90);
    expect(refreshes()).toBe(1);
  });

  it('makes one refresh for many concurrent calls with an expired token, and each call then succeeds', async () => {
    const { client, t, refreshes } = await setUp();
    await client.login(USER.email, USER.password);
    // The device slept past the token's expiry: its timers have not fired yet.
    t.clock.advance(TEST_POLICY.accessTokenSeconds + 1);
    vi.setSystemTime(t.clock.now());
    const accounts = await Promise.all(Array.from({ length: 20 }, () => client.me()));
    expect(accounts.map((account) => account.attributes.email)).toEqual(Array(20).fill(USER.email));
    expect(refreshes()).toBe(1);
  });

  it('after a 401 with a token the service no longer takes, refreshes once for all and retries each call', async () => {
    const { client, t, refreshes } = await setUp();
    await client.login(USER.email, USER.password);
    t.clock.advance(TEST_POLICY.accessTokenSeconds + 1); // the service's clock only
    const statuses = await Promise.all(
      Array.from({ length: 10 }, async () => (await client.fetch('http://service.test/v1/users/me')).status),
    );
    expect(statuses).toEqual(Array(10).fill(200));
    expect(refreshes()).toBe(1);
  });

  it('logs out: the refresh token is revoked at the service, and no refresh is scheduled any more', async () => {
    const { store, refreshTokens } = mapStore();
    const { client, fetch, elapse, refreshes } = await setUp(refreshTokens);
    await client.login(USER.email, USER.password);
    const refreshToken = store.get('token');
    expect(refreshToken).toBeTruthy();
    await client.logout();
    expect(store.size).toBe(0);
    expect(client.accessToken).toBeNull();
    await elapse(TEST_POLICY.accessTokenSeconds * 2);
    expect(refreshes()).toBe(0);
    const reused = await fetch(
      new Request('http://service.test/v1/refresh', {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ refreshToken }),
      }),
    );
    expect(reused.status).toBe(401);
    const after = await client.me().catch((error: unknown) => error);
    expect((after as ApiError).status).toBe(401);
  });

  it('resumes the session whose refresh token the app stored, in a new client', async () => {
    const { refreshTokens } = mapStore();
    const { client, t } = await setUp(refreshTokens);
    await client.login(USER.email, USER.password);
    const reloaded = new AppClient({
      baseUrl: 'http://service.test',
      fetch: (request) => Promise.resolve(t.app.request(request)),
      refreshTokens,
    });
    expect(await reloaded.resume()).toBe(true);
    expect((await reloaded.me()).attributes.email).toBe(USER.email);
    expect(await new AppClient({ baseUrl: 'http://service.test' }).resume()).toBe(false);
  });
});
