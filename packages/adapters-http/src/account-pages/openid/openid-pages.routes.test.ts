import type { User } from '@uas/domain';
import { describe, expect, it } from 'vitest';
import {
  addIdentityProvider,
  createTestApp,
  oauthCookieHeader,
  storeGrant,
  TEST_PUBLIC_URL,
  upstreamAccount,
  type TestApp,
} from '../../testing';

const PASSWORD = 'user-password-1';
const SAME_ORIGIN = { Origin: 'http://localhost' };
const HOSTILE = '"><script>alert(1)</script>';

/**
 * A browser over the test app: it keeps the cookies answers set (a Max-Age=0 removes one) and
 * sends them back, as a browser does on the pages' paths. Every answer is read once, as text, and
 * kept for the checks of what must never appear.
 */
class PageBrowser {
  readonly cookies = new Map<string, string>();
  readonly bodies: string[] = [];

  constructor(
    private readonly t: TestApp,
    cookie?: string,
  ) {
    if (cookie) this.remember(cookie);
  }

  private remember(setCookie: string) {
    const [pair = '', ...attributes] = setCookie.split(';');
    const [name = '', value = ''] = pair.split('=');
    if (attributes.some((attribute) => attribute.trim().toLowerCase() === 'max-age=0')) this.cookies.delete(name);
    else this.cookies.set(name, value);
  }

  private async send(path: string, init: RequestInit = {}) {
    const cookie = [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
    const response = await this.t.app.request(path, {
      ...init,
      headers: { ...(cookie ? { Cookie: cookie } : {}), ...(init.headers as Record<string, string>) },
    });
    for (const set of response.headers.getSetCookie()) this.remember(set);
    const body = await response.text();
    this.bodies.push(body);
    return { response, status: response.status, body, location: response.headers.get('location') };
  }

  get(path: string) {
    return this.send(path);
  }

  head(path: string) {
    return this.send(path, { method: 'HEAD' });
  }

  post(path: string, fields: Record<string, string>, headers: Record<string, string> = SAME_ORIGIN) {
    return this.send(path, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded', ...headers },
      body: new URLSearchParams(fields).toString(),
    });
  }

  /** The answers so far hold none of `secrets`. */
  expectNever(...secrets: string[]) {
    for (const body of this.bodies) for (const secret of secrets) expect(body).not.toContain(secret);
  }
}

async function scene({ loginHint = null as string | null, clientName = 'Example App' } = {}) {
  const t = await createTestApp();
  const user = await t.createUser({ email: 'ann@example.com', password: PASSWORD });
  const { uid, cookie } = t.openIdInteractions.start({ loginHint, client: { id: 'client-1', name: clientName } });
  return { t, user, uid, browser: new PageBrowser(t, cookie) };
}

/** The address a page's relative link or action reaches, from the page at `path`. */
const resolved = (path: string, href: string) => new URL(href, new URL(path, TEST_PUBLIC_URL)).pathname;

/** The value of the attribute `name` of the first element matching `selector` (a crude read, for these pages). */
function attribute(body: string, pattern: RegExp): string {
  const found = pattern.exec(body)?.[1];
  if (found === undefined) throw new Error(`no ${pattern} in the page`);
  return found.replaceAll('&amp;', '&');
}

function expectPageHeaders(response: Response) {
  expect(response.headers.get('content-type')).toBe('text/html; charset=UTF-8');
  expect(response.headers.get('cache-control')).toBe('no-store');
  expect(response.headers.get('x-frame-options')).toBe('DENY');
  const csp = response.headers.get('content-security-policy') ?? '';
  expect(csp).toContain("script-src 'self'");
  expect(csp).toContain("form-action 'self'");
  expect(csp).toContain("frame-ancestors 'none'");
}

const signInFields = (email: string, password: string) => ({ email, password });

describe('GET /account/authorize/:uid', () => {
  it('shows the sign-in form for the application, the login_hint filled in, every address reaching the pages', async () => {
    const { browser, uid } = await scene({ loginHint: 'ann@example.com' });
    const path = `/account/authorize/${uid}`;
    const page = await browser.get(path);
    expect(page.status).toBe(200);
    expectPageHeaders(page.response);
    expect(page.body).toContain('<html lang="en">');
    expect(page.body).toContain('<h1>Sign in</h1>');
    expect(page.body).toContain('Sign in to continue to Example App.');
    expect(page.body).toContain('<label for="email">Email address</label>');
    expect(page.body).toContain('value="ann@example.com"');
    expect(page.body).toContain('<label for="password">Password</label>');
    expect(page.body).toContain('autocomplete="current-password"');
    expect(resolved(path, attribute(page.body, /<form method="post" action="([^"]+)"/))).toBe(path);
    expect(resolved(path, attribute(page.body, /rel="stylesheet" href="([^"]+)"/))).toBe('/account/account.css');
    expect(page.body).not.toContain('Continue with');
  });

  it('offers each enabled identity provider as a link, by its name', async () => {
    const { t, browser, uid } = await scene();
    await addIdentityProvider(t, { slug: 'github', kind: 'github', issuer: null });
    await addIdentityProvider(t, { slug: 'staff-sso' });
    await addIdentityProvider(t, { slug: 'paused', enabled: false });
    const path = `/account/authorize/${uid}`;
    const page = await browser.get(path);
    expect(page.body).toContain('>Continue with GitHub</a>');
    expect(page.body).toContain('>Continue with staff-sso</a>');
    expect(page.body).not.toContain('paused');
    const href = attribute(page.body, /<a href="([^"]+)">Continue with GitHub/);
    expect(resolved(path, href)).toBe(`/account/authorize/${uid}/with/github`);
  });

  it('escapes an application name and a login_hint that hold markup', async () => {
    const { browser, uid } = await scene({ loginHint: HOSTILE, clientName: `<script>alert("name")</script>` });
    const page = await browser.get(`/account/authorize/${uid}`);
    expect(page.status).toBe(200);
    expect(page.body).not.toContain('<script');
    expect(page.body).toContain('Sign in to continue to &lt;script&gt;alert(&quot;name&quot;)&lt;/script&gt;.');
    expect(page.body).toContain('value="&quot;&gt;&lt;script&gt;alert(1)&lt;/script&gt;"');
  });

  it.each([
    ['without the engine cookie', ''],
    ['with another browser’s engine cookie', 'other'],
    ['of an unknown uid', 'unknown'],
  ])('answers "no such sign-in" (404) %s, showing nothing of the application', async (_case, kind) => {
    const { t, uid } = await scene({ clientName: 'Secret Client' });
    const other = t.openIdInteractions.start({ client: { id: 'client-2', name: 'Other Client' } });
    const browser = new PageBrowser(t, kind === 'other' ? other.cookie : undefined);
    const target = kind === 'unknown' ? 'no-such-uid' : uid;
    for (const answer of [
      await browser.get(`/account/authorize/${target}`),
      await browser.post(`/account/authorize/${target}`, signInFields('ann@example.com', PASSWORD)),
      await browser.get(`/account/authorize/${target}/consent`),
      await browser.post(`/account/authorize/${target}/consent`, { decision: 'allow' }),
    ]) {
      expect(answer.status).toBe(404);
      expectPageHeaders(answer.response);
      expect(answer.body).toContain('This sign-in is unknown, has expired, or was started in another browser.');
      expect(answer.body).not.toContain('<form');
    }
    browser.expectNever('Secret Client', 'Other Client');
    expect(t.openIdInteractions.finished).toEqual([]);
  });

  it('sends a browser whose user is signed in already to the consent', async () => {
    const { t, user } = await scene();
    const { uid, cookie } = t.openIdInteractions.start({ prompt: 'consent', accountId: user.id });
    const browser = new PageBrowser(t, cookie);
    const page = await browser.get(`/account/authorize/${uid}`);
    expect(page.status).toBe(303);
    expect(resolved(`/account/authorize/${uid}`, page.location ?? '')).toBe(`/account/authorize/${uid}/consent`);
  });
});

describe('POST /account/authorize/:uid: the password', () => {
  it('signs in: the engine told who and how (amr pwd), the way on a page, the account session kept in its cookie', async () => {
    const { t, browser, uid, user } = await scene();
    const answer = await browser.post(`/account/authorize/${uid}`, signInFields('ann@example.com', PASSWORD));
    expect(answer.status).toBe(200);
    expectPageHeaders(answer.response);
    const onward = `${TEST_PUBLIC_URL}oidc/auth/${uid}`;
    expect(answer.body).toContain(`<meta http-equiv="refresh" content="0; url=${onward}">`);
    expect(answer.body).toContain(`<a class="continue" href="${onward}">Continue to Example App</a>`);
    expect(t.openIdInteractions.finished).toEqual([
      { uid, outcome: 'signed_in', signIn: { accountId: user.id, amr: ['pwd'] } },
    ]);
    const cookie = answer.response.headers.getSetCookie().find((set) => set.startsWith('uas_account='));
    expect(cookie).toMatch(/; Max-Age=604800; Path=\/account\/; HttpOnly; Secure; SameSite=Lax$/);
    const refreshToken = browser.cookies.get('uas_account') ?? '';
    expect(refreshToken).not.toBe('');
    browser.expectNever(PASSWORD, refreshToken);
    expect(t.logger.text()).not.toContain(PASSWORD);
  });

  it('refuses a wrong password and an unknown address in the same words (401), the address kept, never the password', async () => {
    const { t, browser, uid } = await scene();
    const wrong = await browser.post(`/account/authorize/${uid}`, signInFields('ann@example.com', 'wrong-password-9'));
    const unknown = await browser.post(`/account/authorize/${uid}`, signInFields('nobody@example.com', PASSWORD));
    for (const answer of [wrong, unknown]) {
      expect(answer.status).toBe(401);
      expect(answer.body).toContain('<title>Error: Sign in – Account</title>');
      expect(answer.body).toContain(
        '<p class="error" id="sign-in-error" role="alert">The email address or password is not right.</p>',
      );
      expect(answer.body).toContain('aria-describedby="sign-in-error" autofocus>');
    }
    expect(wrong.body.replace('ann@example.com', 'nobody@example.com')).toBe(unknown.body);
    browser.expectNever(PASSWORD, 'wrong-password-9');
    expect(t.openIdInteractions.finished).toEqual([]);
    expect(browser.cookies.has('uas_account')).toBe(false);
  });

  it('is throttled as every login: past the limit, 429 with Retry-After, even with the right password', async () => {
    const { t, browser, uid } = await scene();
    let answer = await browser.post(`/account/authorize/${uid}`, signInFields('ann@example.com', 'wrong-password-9'));
    for (let tries = 0; answer.status === 401 && tries < 50; tries++) {
      answer = await browser.post(`/account/authorize/${uid}`, signInFields('ann@example.com', 'wrong-password-9'));
    }
    expect(answer.status).toBe(429);
    const right = await browser.post(`/account/authorize/${uid}`, signInFields('ann@example.com', PASSWORD));
    expect(right.status).toBe(429);
    expect(Number(right.response.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(right.body).toContain('Too many failed attempts. Wait a few minutes, then try again.');
    expect(t.openIdInteractions.finished).toEqual([]);
  });

  it('tells a deactivated account so only once its password was right', async () => {
    const { t, browser, uid, user } = await scene();
    await t.deps.users.update(user.id, { active: 0 });
    const wrong = await browser.post(`/account/authorize/${uid}`, signInFields('ann@example.com', 'wrong-password-9'));
    expect(wrong.status).toBe(401);
    const right = await browser.post(`/account/authorize/${uid}`, signInFields('ann@example.com', PASSWORD));
    expect(right.status).toBe(403);
    expect(right.body).toContain('This account is not active, so it cannot sign in.');
    expect(t.openIdInteractions.finished).toEqual([]);
  });

  it('refuses a form from another site (403), signing nobody in', async () => {
    const { t, browser, uid } = await scene();
    const crossSite: Record<string, string>[] = [
      { Origin: 'https://evil.example' },
      { 'Sec-Fetch-Site': 'cross-site' },
      {},
    ];
    for (const headers of crossSite) {
      const answer = await browser.post(
        `/account/authorize/${uid}`,
        signInFields('ann@example.com', PASSWORD),
        headers,
      );
      expect(answer.status).toBe(403);
      expect(answer.body).toContain('This form was sent from another site, so nothing was done.');
    }
    expect(t.openIdInteractions.finished).toEqual([]);
  });
});

describe('POST /account/authorize/:uid: the second factor', () => {
  async function withTotp() {
    const s = await scene();
    const { secret } = await s.t.enrol.totp('user', s.user.id, s.t.clock.now());
    await s.t.enrol.recoveryCodes('user', s.user.id, ['recovery-code-1']);
    const first = await s.browser.post(`/account/authorize/${s.uid}`, signInFields('ann@example.com', PASSWORD));
    return { ...s, secret, first, handle: attribute(first.body, /name="challenge" value="([^"]+)"/) };
  }

  it('asks for a code after the password; the right TOTP signs in with amr pwd, otp, mfa', async () => {
    const { t, browser, uid, user, secret, first, handle } = await withTotp();
    expect(first.status).toBe(200);
    expect(first.body).toContain('<h1>Confirm it is you</h1>');
    expect(first.body).toContain('<label for="code">Code from your authenticator app, or a recovery code</label>');
    expect(resolved(`/account/authorize/${uid}`, attribute(first.body, /action="([^"]+)"/))).toBe(
      `/account/authorize/${uid}`,
    );
    expect(t.openIdInteractions.finished).toEqual([]);

    const wrong = await browser.post(`/account/authorize/${uid}`, { challenge: handle, kinds: 'totp', code: '000000' });
    expect(wrong.status).toBe(401);
    expect(wrong.body).toContain('That code is not right, or it was used already.');
    expect(wrong.body).toContain(`name="challenge" value="${handle}"`);

    const code = t.codes.codeAt(secret, t.clock.now());
    const done = await browser.post(`/account/authorize/${uid}`, { challenge: handle, kinds: 'totp', code });
    expect(done.status).toBe(200);
    expect(done.body).toContain('http-equiv="refresh"');
    expect(t.openIdInteractions.finished).toEqual([
      { uid, outcome: 'signed_in', signIn: { accountId: user.id, amr: ['pwd', 'otp', 'mfa'] } },
    ]);
    browser.expectNever(PASSWORD, secret, browser.cookies.get('uas_account') ?? '');
  });

  it('takes a recovery code', async () => {
    const { t, browser, uid, handle } = await withTotp();
    const done = await browser.post(`/account/authorize/${uid}`, { challenge: handle, code: 'recovery-code-1' });
    expect(done.status).toBe(200);
    expect(t.openIdInteractions.finished).toHaveLength(1);
    browser.expectNever('recovery-code-1');
  });

  it('an account whose only second factor is a passkey is told this page cannot use it, and signs nobody in', async () => {
    const { t, browser, uid, user } = await scene();
    await t.enrol.passkey('user', user.id, t.clock.now());
    const answer = await browser.post(`/account/authorize/${uid}`, signInFields('ann@example.com', PASSWORD));
    expect(answer.body).toContain('This account confirms sign-ins with a passkey, which this page cannot use.');
    expect(answer.body).not.toContain('<form');
    expect(t.openIdInteractions.finished).toEqual([]);
  });

  it('a spent or forged challenge sends back to the password (400)', async () => {
    const { t, browser, uid } = await withTotp();
    const answer = await browser.post(`/account/authorize/${uid}`, { challenge: 'forged-handle', code: '123456' });
    expect(answer.status).toBe(400);
    expect(answer.body).toContain('This sign-in took too long or was ended. Sign in again.');
    expect(answer.body).toContain('type="password"');
    expect(t.openIdInteractions.finished).toEqual([]);
  });
});

describe('signing in with an identity provider', () => {
  it('goes through the service’s own external sign-in and back, redeeming the code with the verifier it kept', async () => {
    const { t, browser, uid, user } = await scene();
    await addIdentityProvider(t, { slug: 'acme', autoLink: true });
    const start = await browser.get(`/account/authorize/${uid}/with/acme`);
    expect(start.status).toBe(303);
    const authorize = new URL(start.location ?? '');
    expect(authorize.pathname).toBe('/v1/oauth/acme/authorize');
    expect(authorize.searchParams.get('redirect_to')).toBe(`${TEST_PUBLIC_URL}account/authorize/${uid}/external`);
    const verifierCookie = start.response.headers.getSetCookie().find((set) => set.startsWith('uas_account_pkce='));
    expect(verifierCookie).toMatch(/; Max-Age=600; Path=\/account\/; HttpOnly; Secure; SameSite=Lax$/);
    const verifier = browser.cookies.get('uas_account_pkce') ?? '';

    const toProvider = await t.app.request(`${authorize.pathname}${authorize.search}`);
    const state = new URL(toProvider.headers.get('location') ?? '').searchParams.get('state') ?? '';
    const params = t.upstream.consent(state, upstreamAccount({ email: 'ann@example.com' }));
    const back = await t.app.request(`/v1/oauth/acme/callback?${new URLSearchParams(params)}`, {
      headers: oauthCookieHeader(toProvider),
    });
    const returned = new URL(back.headers.get('location') ?? '');
    expect(returned.pathname).toBe(`/account/authorize/${uid}/external`);

    const done = await browser.get(`${returned.pathname}${returned.search}`);
    expect(done.status).toBe(200);
    expect(done.body).toContain('http-equiv="refresh"');
    expect(t.openIdInteractions.finished).toEqual([
      { uid, outcome: 'signed_in', signIn: { accountId: user.id, amr: ['fed'] } },
    ]);
    expect(browser.cookies.has('uas_account_pkce')).toBe(false);
    browser.expectNever(verifier, returned.searchParams.get('code') ?? '');

    const again = await browser.get(`${returned.pathname}${returned.search}`);
    expect(again.status).toBe(404);
  });

  it('says in words why the provider’s sign-in did not reach an account', async () => {
    const { browser, uid } = await scene();
    const answer = await browser.get(`/account/authorize/${uid}/external?error=identity_not_linked`);
    expect(answer.status).toBe(403);
    expect(answer.body).toContain('That account is not linked to an account here.');
    expect(answer.body).toContain('type="password"');
    const forged = await browser.get(`/account/authorize/${uid}/external?code=forged-code`);
    expect(forged.status).toBe(400);
    expect(forged.body).toContain('The sign-in with the other service did not finish. Try again.');
  });

  it('starts no trip through a provider that is unknown or disabled, nor for HEAD', async () => {
    const { t, browser, uid } = await scene();
    await addIdentityProvider(t, { slug: 'paused', enabled: false });
    expect((await browser.get(`/account/authorize/${uid}/with/paused`)).status).toBe(404);
    expect((await browser.get(`/account/authorize/${uid}/with/nope`)).status).toBe(404);
    await addIdentityProvider(t, { slug: 'acme' });
    expect((await browser.head(`/account/authorize/${uid}/with/acme`)).status).toBe(405);
    expect(browser.cookies.has('uas_account_pkce')).toBe(false);
  });
});

describe('/account/authorize/:uid/consent', () => {
  async function consentScene(clientName = 'Example App') {
    const t = await createTestApp();
    const user = await t.createUser({ email: 'ann@example.com', password: PASSWORD });
    const scopes = ['openid', 'email', 'profile', 'metadata', 'app', 'offline_access'];
    const { uid, cookie } = t.openIdInteractions.start({
      prompt: 'consent',
      accountId: user.id,
      client: { id: 'client-1', name: clientName },
      scopes,
    });
    return { t, user, uid, browser: new PageBrowser(t, cookie) };
  }

  it('names the application and every scope in plain words, with Allow and Deny', async () => {
    const { browser, uid } = await consentScene();
    const path = `/account/authorize/${uid}/consent`;
    const page = await browser.get(path);
    expect(page.status).toBe(200);
    expectPageHeaders(page.response);
    expect(page.body).toContain('<h1>Let Example App use your account?</h1>');
    for (const words of [
      'Know who you are',
      'See your email address and whether it is verified',
      'See your name',
      'See the details stored with your account',
      'See the settings an administrator keeps for your account',
      'Stay signed in: use your account while you are away, until you remove its access here',
    ]) {
      expect(page.body).toContain(`<li>${words}</li>`);
    }
    expect(page.body).toContain('<button type="submit" name="decision" value="allow">Allow</button>');
    expect(page.body).toContain('<button type="submit" name="decision" value="deny" class="secondary">Deny</button>');
    expect(resolved(path, attribute(page.body, /<form method="post" action="([^"]+)"/))).toBe(path);
    expect(resolved(path, attribute(page.body, /rel="stylesheet" href="([^"]+)"/))).toBe('/account/account.css');
  });

  it('escapes an application name that holds markup', async () => {
    const { browser, uid } = await consentScene(HOSTILE);
    const page = await browser.get(`/account/authorize/${uid}/consent`);
    expect(page.body).not.toContain('<script');
    expect(page.body).toContain('&quot;&gt;&lt;script&gt;alert(1)&lt;/script&gt;');
  });

  it.each([
    ['allow', 'consented', 'Access allowed'],
    ['deny', 'declined', 'Access denied'],
  ])('%s: the engine is told, and the browser sent on', async (decision, outcome, title) => {
    const { t, browser, uid } = await consentScene();
    const answer = await browser.post(`/account/authorize/${uid}/consent`, { decision });
    expect(answer.status).toBe(200);
    expect(answer.body).toContain(`<h1>${title}</h1>`);
    expect(answer.body).toContain(`<meta http-equiv="refresh" content="0; url=${TEST_PUBLIC_URL}oidc/auth/${uid}">`);
    expect(t.openIdInteractions.finished).toEqual([{ uid, outcome }]);
  });

  it('decides nothing for a form from another site (403) or without a decision (400)', async () => {
    const { t, browser, uid } = await consentScene();
    const crossSite = await browser.post(
      `/account/authorize/${uid}/consent`,
      { decision: 'allow' },
      {
        Origin: 'https://evil.example',
      },
    );
    expect(crossSite.status).toBe(403);
    const undecided = await browser.post(`/account/authorize/${uid}/consent`, { decision: 'maybe' });
    expect(undecided.status).toBe(400);
    expect(undecided.body).toContain('Allow</button>');
    expect(t.openIdInteractions.finished).toEqual([]);
  });

  it('is no consent before the sign-in: back to the sign-in form', async () => {
    const { browser, uid } = await scene();
    const page = await browser.get(`/account/authorize/${uid}/consent`);
    expect(page.status).toBe(303);
    expect(resolved(`/account/authorize/${uid}/consent`, page.location ?? '')).toBe(`/account/authorize/${uid}`);
  });

  it('never shows another browser’s consent, even to a signed-in user', async () => {
    const { t, browser: annBrowser } = await consentScene('Ann’s Client');
    const bob = await t.createUser({ email: 'bob@example.com', password: PASSWORD });
    const bobs = t.openIdInteractions.start({
      prompt: 'consent',
      accountId: bob.id,
      client: { id: 'c2', name: 'Bob’s Client' },
    });
    const page = await annBrowser.get(`/account/authorize/${bobs.uid}/consent`);
    expect(page.status).toBe(404);
    expect((await annBrowser.post(`/account/authorize/${bobs.uid}/consent`, { decision: 'allow' })).status).toBe(404);
    annBrowser.expectNever('Bob’s Client', 'bob@example.com');
    expect(t.openIdInteractions.finished).toEqual([]);
  });
});

describe('/account/applications', () => {
  /** Ann signed in through an authorization (the pages keep her session); a client she and Bob granted. */
  async function signedIn(clientName = 'Acme <b>CRM</b>') {
    const s = await scene();
    const bob = await s.t.createUser({ email: 'bob@example.com', password: PASSWORD });
    const { client } = await s.t.deps.oauthClients.create({
      name: clientName,
      type: 'confidential',
      redirectUris: ['https://crm.example.com/callback'],
    });
    const grant = (accountId: string, scope: string) => storeGrant(s.t, { accountId, clientId: client.id, scope });
    const grantIds = async (user: User) =>
      (await s.t.repositories.openIdRecords.listByAccount('Grant', user.id, s.t.clock.now())).map(({ id }) => id);
    const signIn = await s.browser.post(`/account/authorize/${s.uid}`, signInFields('ann@example.com', PASSWORD));
    expect(signIn.status).toBe(200);
    const grants = async (user: User) => (await s.t.deps.applicationGrants.list(user.id)).map(({ id }) => id);
    return { ...s, client, bob, grant, grants, grantIds };
  }

  const csrfOf = (body: string) => attribute(body, /name="csrf" value="([^"]+)"/);

  it('without a session: the sign-in form, which opens one and comes back here', async () => {
    const { t, user } = await scene();
    const { client } = await t.deps.oauthClients.create({
      name: 'Acme',
      type: 'confidential',
      redirectUris: ['https://crm.example.com/callback'],
    });
    await storeGrant(t, { accountId: user.id, clientId: client.id, scope: 'openid' });
    const browser = new PageBrowser(t);
    const page = await browser.get('/account/applications');
    expect(page.status).toBe(200);
    expectPageHeaders(page.response);
    expect(page.body).toContain('<h1>Your applications</h1>');
    expect(page.body).toContain('type="password"');
    expect(page.body).not.toContain('Acme');
    expect(resolved('/account/applications', attribute(page.body, /action="([^"]+)"/))).toBe('/account/sign-in');

    const signIn = await browser.post('/account/sign-in', signInFields('ann@example.com', PASSWORD));
    expect(signIn.status).toBe(303);
    expect(resolved('/account/sign-in', signIn.location ?? '')).toBe('/account/applications');
    const listed = await browser.get('/account/applications');
    expect(listed.body).toContain('<h2>Acme</h2>');
    browser.expectNever(PASSWORD);
  });

  it('lists only the signed-in user’s applications, their names escaped, with what each may do', async () => {
    const { browser, user, bob, grant } = await signedIn();
    await grant(user.id, 'openid email offline_access');
    // Signed in to it again from another browser: still one application.
    await grant(user.id, 'openid email');
    await grant(bob.id, 'openid profile');
    const page = await browser.get('/account/applications');
    expect(page.status).toBe(200);
    expectPageHeaders(page.response);
    expect(page.body).toContain('<h2>Acme &lt;b&gt;CRM&lt;/b&gt;</h2>');
    expect(page.body).not.toContain('<b>');
    expect(page.body).toContain('<li>See your email address and whether it is verified</li>');
    expect(page.body).toContain(
      '<li>Stay signed in: use your account while you are away, until you remove its access here</li>',
    );
    expect(page.body).not.toContain('See your name');
    expect(page.body.match(/Remove access of/g)).toHaveLength(1);
    browser.expectNever('bob@example.com', PASSWORD);
  });

  it('each visit exchanges the session’s refresh token for the next; the spent one opens nothing after the grace window', async () => {
    const { t, browser } = await signedIn();
    const first = browser.cookies.get('uas_account') ?? '';
    await browser.get('/account/applications');
    const second = browser.cookies.get('uas_account') ?? '';
    expect(second).not.toBe(first);
    t.clock.advance(60);
    const stolen = new PageBrowser(t, `uas_account=${first}`);
    const page = await stolen.get('/account/applications');
    expect(page.body).toContain('type="password"');
    expect(stolen.cookies.has('uas_account')).toBe(false);
    // Reuse ends the session: the browser that held it is signed out as well.
    expect((await browser.get('/account/applications')).body).toContain('type="password"');
  });

  it('revokes with the session’s CSRF token; without it, or with another session’s, nothing is revoked (403)', async () => {
    const { t, browser, user, client, grant, grants, grantIds } = await signedIn();
    const mine = await grant(user.id, 'openid');
    const again = await grant(user.id, 'openid email');
    const page = await browser.get('/account/applications');
    const csrf = csrfOf(page.body);
    expect(resolved('/account/applications', attribute(page.body, /<form method="post" action="([^"]+)"/))).toBe(
      '/account/applications/revoke',
    );

    const other = await scene();
    const otherBrowser = other.browser;
    await otherBrowser.post(`/account/authorize/${other.uid}`, signInFields('ann@example.com', PASSWORD));
    const othersCsrf = csrfOf((await otherBrowser.get('/account/applications')).body);

    const forged: Record<string, string>[] = [
      { application: client.id },
      { application: client.id, csrf: '' },
      { application: client.id, csrf: othersCsrf },
    ];
    for (const fields of forged) {
      const refused = await browser.post('/account/applications/revoke', fields);
      expect(refused.status).toBe(403);
      expect(refused.body).toContain('This form is out of date or was sent from another site, so nothing was done.');
    }
    const crossSite = await browser.post(
      '/account/applications/revoke',
      { application: client.id, csrf },
      {
        Origin: 'https://evil.example',
      },
    );
    expect(crossSite.status).toBe(403);
    expect(await grants(user)).toEqual([client.id]);
    expect(await grantIds(user)).toEqual([mine, again]);

    const revoked = await browser.post('/account/applications/revoke', { application: client.id, csrf });
    expect(revoked.status).toBe(303);
    expect(resolved('/account/applications/revoke', revoked.location ?? '')).toBe('/account/applications');
    expect(await grantIds(user)).toEqual([]);
    for (const grant of [mine, again])
      expect(await t.repositories.openIdRecords.find('AccessToken', `token-of-${grant}`, t.clock.now())).toBeNull();
    expect((await browser.get('/account/applications')).body).toContain('No application uses your account.');
  });

  it('does not revoke an application only another user let in (404)', async () => {
    const { browser, bob, client, grant, grantIds } = await signedIn();
    const bobs = await grant(bob.id, 'openid');
    const csrf = csrfOf((await browser.get('/account/applications')).body);
    const answer = await browser.post('/account/applications/revoke', { application: client.id, csrf });
    expect(answer.status).toBe(404);
    expect(answer.body).toContain('That application has no access to your account.');
    expect(await grantIds(bob)).toEqual([bobs]);
  });

  it('signs out with the CSRF token: the session ends, and its token with it', async () => {
    const { t, browser } = await signedIn();
    const csrf = csrfOf((await browser.get('/account/applications')).body);
    const token = browser.cookies.get('uas_account') ?? '';
    expect((await browser.post('/account/sign-out', { csrf: 'forged' })).status).toBe(403);
    const out = await browser.post('/account/sign-out', { csrf });
    expect(out.status).toBe(303);
    expect(browser.cookies.has('uas_account')).toBe(false);
    await expect(t.deps.userAuth.refresh(token)).rejects.toThrow();
    expect((await browser.get('/account/applications')).body).toContain('type="password"');
  });
});
