import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import type { BrowserContext, Page } from 'playwright-core';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { useCrossOriginApp } from '../support/cross-origin-app';

const USER = { email: 'app-client@example.com', password: 'app client password 1' };
const APP_CLIENT = fileURLToPath(new URL('../../../app-client/src/index.ts', import.meta.url));

/**
 * A web app on another origin whose page loads @uas/app-client, bundled for the browser as an
 * app's bundler would (no Node.js module may be in it), and exposes it to the test as `uas`.
 */
const APP_PAGE = `<!doctype html><html><head><title>app</title>
<script type="module">import * as uas from '/app-client.js'; window.uas = uas; window.ready = true;</script>
</head><body>app</body></html>`;

const app = useCrossOriginApp(async () => {
  const bundle = await build({
    entryPoints: [APP_CLIENT],
    bundle: true,
    format: 'esm',
    platform: 'browser',
    conditions: ['source'],
    write: false,
  });
  return {
    '/': { type: 'text/html; charset=utf-8', body: APP_PAGE },
    '/app-client.js': { type: 'text/javascript', body: bundle.outputFiles[0]!.text },
  };
}, USER);

let context: BrowserContext;
let page: Page;
/** Every request the page sent to the service, as `METHOD /path` (CORS preflights included). */
let sent: string[];
beforeEach(async () => {
  context = await app().browser.newContext();
  page = await context.newPage();
  sent = [];
  page.on('request', (request) => {
    const url = new URL(request.url());
    if (url.origin === app().server.baseUrl) sent.push(`${request.method()} ${url.pathname}`);
  });
  await page.clock.install();
  await page.goto(`${app().appOrigin}/`);
  await page.waitForFunction(() => (window as unknown as { ready?: boolean }).ready === true);
});
afterEach(async () => {
  await context.close();
});

const refreshes = () => sent.filter((line) => line === 'POST /v1/refresh').length;

/** Runs `script` in the page with the service's origin and the user; `uas` is the package. */
function inApp<T>(script: string): Promise<T> {
  return page.evaluate(
    ([body, baseUrl, user]) => new Function('baseUrl', 'user', `return (async () => { ${body} })()`)(baseUrl, user),
    [script, app().server.baseUrl, USER] as const,
  ) as Promise<T>;
}

describe('@uas/app-client in Chromium, from an origin listed in CORS_ORIGINS', () => {
  it('logs in, reads the account, calls with the bearer, and surfaces refusals as typed JSON:API errors', async () => {
    const result = await inApp<{ email: string; sessions: number; refused: unknown }>(`
      const client = new uas.AppClient({ baseUrl });
      const refused = await client.login(user.email, 'wrong password').catch((error) =>
        ({ isApiError: error instanceof uas.ApiError, status: error.status, code: error.errors[0]?.code }));
      await client.login(user.email, user.password);
      const me = await client.me();
      const sessions = await client.fetch(baseUrl + '/v1/users/me/sessions');
      window.client = client;
      return { email: me.attributes.email, sessions: sessions.status, refused };
    `);
    expect(result).toEqual({
      email: USER.email,
      sessions: 200,
      refused: { isApiError: true, status: 401, code: 'invalid_credentials' },
    });
  });

  it('many concurrent calls once the access token has expired make exactly one refresh request', async () => {
    await inApp(`window.client = new uas.AppClient({ baseUrl }); await client.login(user.email, user.password);`);
    const expiry = await inApp<number>(
      `return JSON.parse(atob(client.accessToken.split('.')[1].replace(/-/g, '+').replace(/_/g, '/'))).exp;`,
    );
    // The device slept past the token's expiry: its clock moved, its timers have not fired yet.
    await page.clock.setSystemTime((expiry + 1) * 1000);
    const before = client();
    const emails = await inApp<string[]>(
      `return (await Promise.all(Array.from({ length: 12 }, () => client.me()))).map((me) => me.attributes.email);`,
    );
    expect(emails).toEqual(Array(12).fill(USER.email));
    expect(refreshes()).toBe(1);
    expect(await client()).not.toBe(await before);
  });

  it('refreshes by itself shortly before the expiry, and stops on logout', async () => {
    await inApp(`window.client = new uas.AppClient({ baseUrl }); await client.login(user.email, user.password);`);
    await page.clock.runFor(14 * 60 * 1000); // ACCESS_TOKEN_TTL_SECONDS is 900: refreshed a minute before
    await expect.poll(refreshes).toBe(1);
    await inApp(`await client.logout();`);
    expect(sent).toContain('DELETE /v1/refresh');
    await page.clock.runFor(60 * 60 * 1000);
    expect(refreshes()).toBe(1);
    const after = await inApp<number>(`return client.me().then(() => 200, (error) => error.status);`);
    expect(after).toBe(401);
  });

  it('keeps the refresh token where the app chooses: in sessionStorage it survives a reload', async () => {
    await inApp(`
      const client = new uas.AppClient({ baseUrl, refreshTokens: uas.webStorageStore(sessionStorage, 'uas') });
      await client.login(user.email, user.password);
    `);
    await page.reload();
    await page.waitForFunction(() => (window as unknown as { ready?: boolean }).ready === true);
    const resumed = await inApp<{ live: boolean; email: string }>(`
      const client = new uas.AppClient({ baseUrl, refreshTokens: uas.webStorageStore(sessionStorage, 'uas') });
      const live = await client.resume();
      return { live, email: (await client.me()).attributes.email };
    `);
    expect(resumed).toEqual({ live: true, email: USER.email });
    // The default keeps it in memory only: a new page has no session to resume.
    expect(await inApp<boolean>(`return new uas.AppClient({ baseUrl }).resume();`)).toBe(false);
  });
});

/** The page's current access token. */
const client = () => inApp<string>(`return client.accessToken;`);
