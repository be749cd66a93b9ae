import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { freePort } from '../../../../scripts/release-process';
import { OidcUpstream } from '../../../../apps/server/test/support/oidc-upstream';
import { expectAccessible } from '../support/accessibility';
import { RelyingParty } from '../support/relying-party';
import { totpCode } from '../support/second-factor';
import { useStack } from '../support/stack';

const JSON_API = 'application/vnd.api+json';
const CLIENT_NAME = 'Loopback Notes';
const PASSWORD = 'relying-party-user-1';

/** The application: openid-client on loopback, registered as a native public client (PKCE, any loopback port). */
const rp = new RelyingParty();
/** An OpenID Connect provider on loopback users may also sign in with (its login answers at once). */
const upstream = new OidcUpstream();
const FEDERATED = { sub: 'corp-user', email: 'federated@example.com', email_verified: true };
let publicUrl = '';
const stack = useStack(async () => {
  await Promise.all([rp.listen(), upstream.start()]);
  upstream.claims = FEDERATED;
  const port = await freePort();
  publicUrl = `http://127.0.0.1:${port}/`;
  return {
    PORT: String(port),
    PUBLIC_URL: publicUrl,
    IDENTITY_PROVIDER_ALLOW_HTTP: 'true',
    IDENTITY_PROVIDER_ALLOW_PRIVATE_ADDRESSES: 'true',
  };
});

beforeAll(async () => {
  const clientId = await stack().api.createOAuthClient({
    name: CLIENT_NAME,
    type: 'public',
    application_type: 'native',
    redirect_uris: [rp.redirectUri],
    scopes: ['openid', 'email', 'offline_access'],
  });
  // The issuer is PUBLIC_URL without its slash.
  await rp.discover(publicUrl.slice(0, -1), clientId);
});
afterAll(() => Promise.all([rp.close(), upstream.stop()]));

let context: BrowserContext;
let page: Page;
/** Script errors and CSP reports: the pages have no script, so there must be none. */
let problems: string[];
beforeEach(async () => {
  context = await stack().browser.newContext();
  page = await context.newPage();
  problems = [];
  page.on('pageerror', (error) => problems.push(error.message));
  page.on('console', (message) => {
    if (message.type() === 'error') problems.push(`${message.text()} at ${message.location().url}`);
  });
});
afterEach(() => context.close());

/** The user's bearer token from the service's own login. */
async function userToken(email: string): Promise<string> {
  const response = await fetch(`${publicUrl}v1/login`, {
    method: 'POST',
    headers: { 'Content-Type': JSON_API },
    body: JSON.stringify({ data: { type: 'users', attributes: { email, password: PASSWORD } } }),
  });
  if (response.status !== 200) throw new Error(`login failed: ${response.status}`);
  return ((await response.json()) as { data: { attributes: { access_token: string } } }).data.attributes.access_token;
}

/** Pairs an authenticator app with the user's account through the API; answers its secret. */
async function pairAuthenticator(email: string): Promise<string> {
  const headers = { 'Content-Type': JSON_API, Authorization: `Bearer ${await userToken(email)}` };
  const enrolled = await fetch(`${publicUrl}v1/users/me/factors`, {
    method: 'POST',
    headers,
    body: JSON.stringify({ data: { type: 'factors', attributes: { kind: 'totp' } } }),
  });
  const { data } = (await enrolled.json()) as { data: { id: string; attributes: { secret: string } } };
  const verified = await fetch(`${publicUrl}v1/users/me/factors/${data.id}/verify`, {
    method: 'POST',
    headers,
    body: JSON.stringify({ code: totpCode(data.attributes.secret) }),
  });
  if (verified.status !== 200) throw new Error(`verify failed: ${verified.status} ${await verified.text()}`);
  return data.attributes.secret;
}

/** The password on the service's sign-in page, typed and sent with the keyboard. */
async function signInWithPassword(email: string) {
  await expectAccessible(page, 'Sign in');
  expect(page.url()).toMatch(new RegExp(`^${publicUrl}account/authorize/[^/]+$`));
  await expect(page.getByText(`Sign in to continue to ${CLIENT_NAME}.`).isVisible()).resolves.toBe(true);
  await page.getByLabel('Email address').fill(email);
  await page.getByLabel('Password').fill(PASSWORD);
  await page.keyboard.press('Enter');
}

/** The consent, in plain words; allowed. */
async function allow() {
  await expectAccessible(page, `Let ${CLIENT_NAME} use your account?`);
  expect(await page.getByRole('listitem').allTextContents()).toEqual([
    'Know who you are',
    'See your email address and whether it is verified',
    'Stay signed in: use your account while you are away, until you remove its access here',
  ]);
  await page.getByRole('button', { name: 'Allow' }).click();
}

describe('an application signs its users in through the service (openid-client and Chromium)', () => {
  it('password, consent, tokens at the application; the user sees it among their applications and revokes it, which ends its refresh token', async () => {
    const email = 'olive@example.com';
    const user = await stack().api.createUser({ email, password: PASSWORD });
    await page.goto(`${rp.origin}/login?scope=${encodeURIComponent('openid email offline_access')}`);
    await signInWithPassword(email);
    await allow();
    await page.getByRole('heading', { name: `Signed in as ${user.id}` }).waitFor();

    const [tokens] = rp.received;
    expect(tokens?.sub).toBe(user.id);
    expect(await rp.userInfo(tokens?.accessToken ?? '', user.id)).toMatchObject({ sub: user.id, email });
    expect(tokens?.refreshToken).toBeDefined();
    // The application keeps the user signed in: the refresh token works, and rotates.
    const refreshed = await rp.refresh(tokens?.refreshToken ?? '');
    const latest = refreshed.refresh_token ?? '';
    expect(latest).not.toBe('');

    // The sign-in left the browser signed in to the account pages.
    await page.goto(`${publicUrl}account/applications`);
    await expectAccessible(page, 'Your applications');
    await page.getByRole('heading', { level: 2, name: CLIENT_NAME }).waitFor();
    await page.getByRole('button', { name: `Remove access of ${CLIENT_NAME}` }).click();
    await page.getByText('No application uses your account.').waitFor();
    await expect(rp.refresh(latest)).rejects.toThrow();
    expect(problems).toEqual([]);
  });

  it('a user with an authenticator app gives its code after the password, then the application gets its tokens', async () => {
    const email = 'tomas@example.com';
    const user = await stack().api.createUser({ email, password: PASSWORD });
    const secret = await pairAuthenticator(email);
    await page.goto(`${rp.origin}/login?scope=${encodeURIComponent('openid email offline_access')}`);
    await signInWithPassword(email);
    await expectAccessible(page, 'Confirm it is you');
    // The pairing used this 30-second step's code: the next step's, which the service also accepts.
    await page.getByLabel('Code from your authenticator app, or a recovery code').fill(totpCode(secret, 1));
    await page.getByRole('button', { name: 'Confirm' }).click();
    await allow();
    await page.getByRole('heading', { name: `Signed in as ${user.id}` }).waitFor();
    const tokens = rp.received.find(({ sub }) => sub === user.id);
    expect(await rp.userInfo(tokens?.accessToken ?? '', user.id)).toMatchObject({ sub: user.id, email });
    expect(problems).toEqual([]);
  });

  it('a user who denies sends the application `access_denied`, and no tokens', async () => {
    const email = 'dina@example.com';
    await stack().api.createUser({ email, password: PASSWORD });
    const before = rp.received.length;
    await page.goto(`${rp.origin}/login`);
    await signInWithPassword(email);
    await page.getByRole('button', { name: 'Deny' }).click();
    await page.getByRole('heading', { name: 'Refused: access_denied' }).waitFor();
    expect(rp.received).toHaveLength(before);
  });

  it('a user signs in with an identity provider from the sign-in page, and the application gets its tokens', async () => {
    await stack().api.createIdentityProvider({
      slug: 'corp',
      kind: 'oidc',
      issuer: upstream.issuer,
      client_id: 'account-pages',
      client_secret: 'account-pages-secret',
    });
    await page.goto(`${rp.origin}/login?scope=${encodeURIComponent('openid email offline_access')}`);
    await expectAccessible(page, 'Sign in');
    // Every document the tab requested from here: the pages, the service's trip, the provider, back to the pages.
    const trip: string[] = [];
    page.on('request', (request) => {
      if (request.isNavigationRequest()) trip.push(new URL(request.url()).pathname);
    });
    await page.getByRole('link', { name: 'Continue with corp' }).click();
    await allow();
    const [user] = await stack().api.usersMatching(FEDERATED.email);
    await page.getByRole('heading', { name: `Signed in as ${user?.id}` }).waitFor();
    expect(trip.slice(0, 5)).toEqual([
      expect.stringMatching(/^\/account\/authorize\/[^/]+\/with\/corp$/),
      '/v1/oauth/corp/authorize',
      '/authorize',
      '/v1/oauth/corp/callback',
      expect.stringMatching(/^\/account\/authorize\/[^/]+\/external$/),
    ]);
    const tokens = rp.received.find(({ sub }) => sub === user?.id);
    expect(await rp.userInfo(tokens?.accessToken ?? '', user?.id ?? '')).toMatchObject({ email: FEDERATED.email });
    expect(problems).toEqual([]);
  });
});
