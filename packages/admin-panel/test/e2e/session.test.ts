import type { Page, Response } from 'playwright-core';
import type { ErrorDocument } from '@uas/client';
import { beforeEach, describe, expect, it } from 'vitest';
import { formatWait } from '../../src/ui/format';
import { AdminClient } from '../support/admin-client';
import { responseTo, signIn } from '../support/browser';
import { usePanel } from '../support/panel';
import { useStack } from '../support/stack';

// Access tokens live 30 s here (the server's minimum), so the scheduled refresh can be watched;
// three failed logins of one account throttle it, so the 429 path is quick to reach.
const stack = useStack({ ACCESS_TOKEN_TTL_SECONDS: '30', LOGIN_FAILURES_PER_ACCOUNT: '3' });
const JWT = /^[\w-]+\.[\w-]+\.[\w-]+$/;

describe('the admin session in the panel', () => {
  const panel = usePanel(stack, 'each');
  let page: Page;
  beforeEach(() => {
    page = panel.page;
  });

  it('sends a visitor without a session to the login page and never asks for user data', async () => {
    await stack().api.createUser({ email: 'private@example.com', password: 'long enough', name: 'Private' });
    const userCalls: string[] = [];
    page.on('request', (r) => {
      if (r.url().includes('/v1/admin/users')) userCalls.push(r.url());
    });

    await page.goto('/admin/users?search=private&page=2');

    await page.waitForURL('**/admin/login');
    await page.getByRole('button', { name: 'Sign in', exact: true }).waitFor();
    expect(await page.locator('table').count()).toBe(0);
    expect(await page.content()).not.toContain('private@example.com');
    expect(userCalls).toEqual([]);
  });

  it('shows the API error in the form when the password is wrong', async () => {
    await page.goto('/admin/login');
    await page.getByLabel('Email', { exact: true }).fill(stack().server.admin.email);
    await page.getByLabel('Password', { exact: true }).fill('not the password');
    const login = responseTo(page, 'POST', '/v1/admin/login');
    await page.getByLabel('Password', { exact: true }).press('Enter');

    const response = await login;
    expect(response.status()).toBe(401);
    const { errors } = (await response.json()) as ErrorDocument;
    const message = errors[0]?.detail ?? errors[0]?.title ?? '';
    expect(message).not.toBe('');
    await expect.poll(() => page.getByRole('alert').textContent()).toContain(message);
    expect(new URL(page.url()).pathname).toBe('/admin/login');
    expect(await page.evaluate(() => document.activeElement?.getAttribute('name'))).toBe('password');
  });

  it('tells the admin how long to wait once sign-in is throttled (429)', async () => {
    await page.goto('/admin/login');
    await page.getByLabel('Email', { exact: true }).fill('nobody@example.com');
    let response: Response | undefined;
    for (let attempt = 1; attempt <= 4; attempt += 1) {
      await page.getByLabel('Password', { exact: true }).fill(`guess number ${attempt}`);
      const login = responseTo(page, 'POST', '/v1/admin/login');
      await page.getByRole('button', { name: 'Sign in', exact: true }).click();
      response = await login;
      if (response.status() === 429) break;
    }
    expect(response?.status()).toBe(429);
    const retryAfter = Number(response?.headers()['retry-after']);
    expect(retryAfter).toBeGreaterThan(0);
    await expect.poll(() => page.getByRole('alert').textContent()).toContain(`Try again in ${formatWait(retryAfter)}.`);
  });

  it('keeps the access token in memory only, the refresh token in an HttpOnly cookie, and survives a reload', async () => {
    await signIn(page, stack().server);
    await page.getByText(stack().server.admin.email).waitFor();

    const storage = await page.evaluate(() => ({
      local: localStorage.length,
      session: sessionStorage.length,
      cookie: document.cookie,
    }));
    expect(storage.local).toBe(0);
    expect(storage.session).toBe(0);
    const tokenCookies = (await panel.context.cookies()).filter((c) => JWT.test(c.value));
    expect(tokenCookies.length).toBeGreaterThan(0);
    for (const cookie of tokenCookies) {
      expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Strict', path: '/v1/admin' });
      expect(storage.cookie).not.toContain(cookie.value);
    }

    await page.reload();
    await page.getByRole('heading', { name: 'Users' }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/admin/users');
  });

  it('refreshes the access token before it expires, with no action from the admin', async () => {
    await signIn(page, stack().server);
    const signedInAt = Date.now();
    const refresh = responseTo(page, 'POST', '/v1/admin/refresh');
    expect((await refresh).status()).toBe(200);
    expect(Date.now() - signedInAt).toBeLessThan(30_000);

    // Past the first token's expiry, the panel still works without a 401 on the way.
    await page.waitForTimeout(Math.max(0, 32_000 - (Date.now() - signedInAt)));
    const statuses: number[] = [];
    page.on('response', (r) => {
      if (r.url().includes('/v1/admin/users')) statuses.push(r.status());
    });
    const list = responseTo(page, 'GET', '/v1/admin/users');
    await page.getByLabel('Search by email').fill('example');
    expect((await list).status()).toBe(200);
    expect(statuses).not.toContain(401);
    expect(new URL(page.url()).pathname).toBe('/admin/users');
  });

  it('logs out through the API; afterwards /admin/ shows no data and lands on the login page', async () => {
    await signIn(page, stack().server);
    const logout = responseTo(page, 'DELETE', /^\/v1\/admin\/logout\//);
    await page.getByRole('button', { name: 'Log out' }).click();

    expect((await logout).status()).toBe(204);
    await page.waitForURL('**/admin/login');
    await page.getByText('You have signed out.').waitFor();

    await page.goto('/admin/');
    await page.waitForURL('**/admin/login');
    await page.getByRole('button', { name: 'Sign in', exact: true }).waitFor();
    expect(await page.locator('table').count()).toBe(0);
  });

  it('returns to the login page when the session was ended elsewhere', async () => {
    await signIn(page, stack().server);
    const elsewhere = await AdminClient.signIn(stack().server);
    expect(await elsewhere.logoutEverywhere()).toBe(204);

    await page.getByLabel('Search by email').fill('anyone');

    await page.waitForURL('**/admin/login');
    await page.getByText('Your session has ended').waitFor();
    expect(await page.locator('table').count()).toBe(0);
  });
});
