import { describe, expect, it } from 'vitest';
import { BACKENDS } from '../support/test-application';
import { REFRESH_REUSE_GRACE_SECONDS } from '../support/wire';
import { claimsOf, nowSeconds, userScenario } from '../support/user-client';
import { expectError } from '../support/error-expectations';
import { sessionOf } from '../support/admin-api';

const FAILURES_ALLOWED = 3;
const WINDOW_SECONDS = 600;

describe.each(BACKENDS)('end-user sessions on %s', (backend) => {
  const scenario = userScenario(backend, {
    env: {
      ACCESS_TOKEN_TTL_SECONDS: '600',
      LOGIN_FAILURES_PER_ACCOUNT: String(FAILURES_ALLOWED),
      LOGIN_FAILURE_WINDOW_SECONDS: String(WINDOW_SECONDS),
    },
  });

  it('POST /v1/login answers the session record of the user, as admin login does, and sets no cookie', async () => {
    const { t, api } = scenario;
    const user = await api.createUser({ name: 'Ada', email: 'Ada@Example.com' });
    const response = await api.login('ada@example.com', user.password);
    expect(response.status).toBe(200);
    expect(response.headers.getSetCookie()).toEqual([]);
    const body = await response.clone().json();
    expect(body).toEqual({
      data: {
        type: 'users',
        id: user.id,
        attributes: {
          name: 'Ada',
          email: 'ada@example.com',
          created: user.attributes.created,
          access_token: expect.any(String),
          access_token_expiry: nowSeconds(t) + 600,
          refresh_token: expect.any(String),
        },
      },
    });
    const { accessToken, accessTokenExpiry } = await sessionOf(response);
    expect(claimsOf(accessToken).exp).toBe(accessTokenExpiry);
  });

  it('POST /v1/login with a wrong password or an unknown email answers the same 401', async () => {
    const { api } = scenario;
    const user = await api.createUser();
    const detail = 'The email or password is wrong.';
    await expectError(await api.login(user.email, 'wrong password'), 401, 'invalid_credentials', { detail });
    await expectError(await api.login('nobody@example.com', user.password), 401, 'invalid_credentials', { detail });
  });

  it('refuses an unverified user only after the right password (403 email_not_verified), until an admin verifies it', async () => {
    const { api } = scenario;
    const user = await api.createUser({ email_verified: false });
    expect(user.attributes.email_verified).toBeNull();
    await expectError(await api.login(user.email, 'wrong password'), 401, 'invalid_credentials');
    await expectError(await api.login(user.email, user.password), 403, 'email_not_verified');
    await api.adminPatch(user.id, { email_verified: true });
    expect((await api.login(user.email, user.password)).status).toBe(200);
  });

  it('refuses a password longer than 72 bytes whose first 72 bytes are right, which bcrypt alone would accept', async () => {
    const { api } = scenario;
    const password = 'Q'.repeat(72);
    const user = await api.createUser({ password });
    await expectError(await api.login(user.email, `${password}EXTRA`), 401, 'invalid_credentials');
    const session = await sessionOf(await api.login(user.email, password));
    const change = await api.patchMe(session.accessToken, {
      password: 'a brand new password',
      current_password: `${password}EXTRA`,
    });
    await expectError(change, 422, 'invalid_attribute', { pointer: '/data/attributes/current_password' });
  });

  it('POST /v1/refresh hands out new tokens and retires the presented refresh token', async () => {
    const { t, api } = scenario;
    const user = await api.createUser();
    const first = await api.loginAs(user);
    t.clock.advance(1);
    const second = await sessionOf(await api.refresh(first.refreshToken));
    expect(second.refreshToken).not.toBe(first.refreshToken);
    expect(second.accessToken).not.toBe(first.accessToken);
    expect(claimsOf(second.accessToken).sid).toBe(claimsOf(first.accessToken).sid);
    expect((await api.me(second.accessToken)).status).toBe(200);
    const third = await sessionOf(await api.refresh(second.refreshToken));
    expect((await api.me(third.accessToken)).status).toBe(200);
  });

  it('presenting a retired refresh token again after the grace window answers 401 and revokes every token of that session', async () => {
    const { t, api } = scenario;
    const user = await api.createUser();
    const first = await api.loginAs(user);
    const second = await sessionOf(await api.refresh(first.refreshToken));
    const elsewhere = await api.loginAs(user);
    t.clock.advance(REFRESH_REUSE_GRACE_SECONDS + 1);

    await expectError(await api.refresh(first.refreshToken), 401, 'refresh_token_reused', {
      detail: 'This refresh token was already used; every token of its session has been revoked.',
    });
    await expectError(await api.refresh(second.refreshToken), 401, 'invalid_token');
    await expectError(await api.me(second.accessToken), 401, 'invalid_token');
    // Another session of the same user is not part of the family.
    expect((await api.me(elsewhere.accessToken)).status).toBe(200);
    expect((await api.refresh(elsewhere.refreshToken)).status).toBe(200);
  });

  it('DELETE /v1/refresh with the user token answers 204, again 204, and the revoked token no longer refreshes', async () => {
    const { api } = scenario;
    const user = await api.createUser();
    const session = await api.loginAs(user);
    const revoked = await api.revoke(session.refreshToken, session.accessToken);
    expect(revoked.status).toBe(204);
    expect(await revoked.text()).toBe('');
    expect((await api.revoke(session.refreshToken, session.accessToken)).status).toBe(204);
    await expectError(await api.refresh(session.refreshToken), 401, 'invalid_token');
  });

  it('DELETE /v1/refresh refuses the refresh token of another user (403) and keeps it working', async () => {
    const { api } = scenario;
    const owner = await api.loginAs(await api.createUser());
    const other = await api.loginAs(await api.createUser());
    await expectError(await api.revoke(owner.refreshToken, other.accessToken), 403, 'forbidden');
    expect((await api.refresh(owner.refreshToken)).status).toBe(200);
  });

  it('an inactive user gets 403 on login with the right password, 401 with a wrong one', async () => {
    const { api } = scenario;
    const user = await api.createUser({ active: 0 });
    await expectError(await api.login(user.email, user.password), 403, 'account_inactive', {
      detail: 'This account is not active.',
    });
    await expectError(await api.login(user.email, 'wrong password'), 401, 'invalid_credentials');
  });

  it('a user deactivated after login can no longer refresh (401) nor use the access token (401)', async () => {
    const { api } = scenario;
    const user = await api.createUser();
    const session = await api.loginAs(user);
    await api.adminPatch(user.id, { active: 0 });
    await expectError(await api.refresh(session.refreshToken), 401, 'invalid_token');
    await expectError(await api.me(session.accessToken), 401, 'invalid_token');
  });

  it('failed logins are throttled per account: 429 with Retry-After, even for the right password, until the window has passed', async () => {
    const { t, api } = scenario;
    const user = await api.createUser();
    for (let i = 0; i < FAILURES_ALLOWED; i += 1) {
      await expectError(await api.login(user.email, 'wrong password'), 401, 'invalid_credentials');
    }
    const throttled = await api.login(user.email, user.password);
    expect(throttled.headers.get('retry-after')).toBe(String(WINDOW_SECONDS));
    await expectError(throttled, 429, 'too_many_attempts');

    // Another account from the same address is not throttled by this one's failures.
    expect((await api.login((await api.createUser()).email, user.password)).status).toBe(200);

    t.clock.advance(WINDOW_SECONDS - 1);
    expect((await api.login(user.email, user.password)).headers.get('retry-after')).toBe('1');
    t.clock.advance(1);
    expect((await api.login(user.email, user.password)).status).toBe(200);
  });
});
