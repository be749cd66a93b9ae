import { readFile } from 'node:fs/promises';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { freePort } from '../../../../scripts/release-process';
import { OidcUpstream } from '../../../../apps/server/test/support/oidc-upstream';
import { AdminClient } from '../support/admin-client';
import { useCrossOriginApp } from '../support/cross-origin-app';

const EXAMPLE = new URL('../../../../examples/sign-in-with/', import.meta.url);
const USER = { email: 'password-user@example.com', password: 'password-user-password-1' };
const FEDERATED = { sub: 'chromium-user', email: 'chromium-user@example.com', email_verified: true };

/** The OpenID Connect provider on loopback the service signs in with (its login answers at once). */
const upstream = new OidcUpstream();
let servicePort = 0;
beforeAll(async () => {
  await upstream.start();
  upstream.claims = FEDERATED;
  servicePort = await freePort();
});
afterAll(() => upstream.stop());

/** examples/sign-in-with as it ships, but for config.js: this service and its provider. */
const app = useCrossOriginApp(
  async () => {
    const read = async (name: string) => readFile(new URL(name, EXAMPLE), 'utf8');
    const config = `window.SIGN_IN_CONFIG = ${JSON.stringify({
      serviceUrl: `http://127.0.0.1:${servicePort}/`,
      provider: 'corp',
      providerName: 'Corp ID',
    })};`;
    return {
      '/': { type: 'text/html; charset=utf-8', body: await read('index.html') },
      '/config.js': { type: 'text/javascript', body: config },
      '/app.js': { type: 'text/javascript', body: await read('app.js') },
    };
  },
  USER,
  (appOrigin) => ({
    PORT: String(servicePort),
    PUBLIC_URL: `http://127.0.0.1:${servicePort}/`,
    REDIRECT_ALLOW_LIST: appOrigin,
    IDENTITY_PROVIDER_ALLOW_HTTP: 'true',
    IDENTITY_PROVIDER_ALLOW_PRIVATE_ADDRESSES: 'true',
  }),
);

let context: BrowserContext;
let page: Page;
let errors: string[];
beforeEach(async () => {
  context = await app().browser.newContext();
  page = await context.newPage();
  errors = [];
  page.on('pageerror', (error) => errors.push(error.message));
});
afterEach(async () => {
  await context.close();
});

describe('the example app’s "Continue with" a provider, walked by Chromium', () => {
  it('goes to the service, the provider and back, shows the signed-in user from /v1/users/me, and signs out', async () => {
    const api = await AdminClient.signIn(app().server);
    await api.createIdentityProvider({
      slug: 'corp',
      kind: 'oidc',
      issuer: upstream.issuer,
      client_id: 'example-app',
      client_secret: 'example-app-secret',
    });

    await page.goto(`${app().appOrigin}/`);
    // Every document the tab requested on the way: the service, the provider, the callback, the app.
    const trip: string[] = [];
    page.on('request', (request) => {
      if (request.isNavigationRequest()) trip.push(new URL(request.url()).origin + new URL(request.url()).pathname);
    });
    await page.getByRole('button', { name: 'Continue with Corp ID' }).click();
    await page.getByText(`Signed in as ${FEDERATED.email}`).waitFor();
    // Through the service and the provider, and back to the app's page, its code gone from the address.
    expect(trip).toEqual([
      `http://127.0.0.1:${servicePort}/v1/oauth/corp/authorize`,
      `${new URL(upstream.issuer).origin}/authorize`,
      `http://127.0.0.1:${servicePort}/v1/oauth/corp/callback`,
      `${app().appOrigin}/`,
    ]);
    expect(page.url()).toBe(`${app().appOrigin}/`);

    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByText('Signed out.').waitFor();
    await expect(page.getByRole('button', { name: 'Continue with Corp ID' }).isVisible()).resolves.toBe(true);
    expect(errors).toEqual([]);

    // The browser's trip left one user, signed up through the provider.
    const users = await api.usersMatching(FEDERATED.email);
    expect(users.map((user) => user.attributes.email)).toEqual([FEDERATED.email]);
  });

  it('a code brought back twice (the page reloaded with it) signs in nobody', async () => {
    await page.goto(`${app().appOrigin}/`);
    const backToApp = page.waitForRequest((request) => request.url().startsWith(`${app().appOrigin}/?code=`));
    await page.getByRole('button', { name: 'Continue with Corp ID' }).click();
    const back = await backToApp;
    await page.getByText(`Signed in as ${FEDERATED.email}`).waitFor();
    await page.goto(back.url());
    // The verifier went with the first redemption, and the code too: the page is told, and signs nobody in.
    await page.getByText(/^Sign-in failed: /).waitFor();
    expect(await page.getByText(/Signed in as/).isVisible()).toBe(false);
  });
});
