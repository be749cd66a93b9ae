import { DEFAULT_OAUTH_STARTS_PER_MINUTE } from '@uas/domain';
import { beforeEach, describe, expect, it } from 'vitest';
import {
  addIdentityProvider,
  APP_CHALLENGE,
  APP_VERIFIER,
  createTestApp,
  jsonInit,
  responseCookies,
  signInPath,
  TEST_APP_ORIGIN,
  throughProvider,
  upstreamAccount,
  type TestApp,
} from '../testing';

let t: TestApp;

beforeEach(async () => {
  t = await createTestApp();
  await addIdentityProvider(t);
});

const redeem = (code: string, code_verifier = APP_VERIFIER, headers: Record<string, string> = {}) =>
  t.app.request('/v1/oauth/token', jsonInit('POST', { code, code_verifier }, headers));

/** The `code` or `error` in a redirect's Location. */
const locationOf = (response: Response) =>
  new URL(response.headers.get('location') ?? '', 'https://same-origin.invalid');

describe('GET /v1/oauth/{slug}/authorize', () => {
  it('sends the browser to the provider with a state, and binds it by an HttpOnly, Lax, path-scoped, Secure cookie', async () => {
    const response = await t.app.request(signInPath('acme', '/done'));
    expect(response.status).toBe(302);
    const location = new URL(response.headers.get('location') ?? '');
    expect(location.origin).toBe('https://acme.provider.example');
    expect(location.searchParams.get('redirect_uri')).toBe('https://id.example.com/v1/oauth/acme/callback');
    expect(location.searchParams.get('state')).toMatch(/.{16,}/);
    // The provider is sent the challenge of the service's own verifier, never the app's.
    expect(location.searchParams.get('code_challenge')).not.toBe(APP_CHALLENGE);
    const cookie = responseCookies(response).get('uas_oauth');
    expect(cookie?.value).toMatch(/.{16,}/);
    expect(Object.fromEntries(cookie?.attributes ?? [])).toEqual({
      'max-age': '600',
      path: '/v1/oauth/',
      httponly: '',
      secure: '',
      samesite: 'Lax',
    });
    expect(response.headers.get('location')).not.toContain(cookie?.value);
  });

  it("scopes the cookie to PUBLIC_URL's path when the service sits behind a prefix, non-Secure on http", async () => {
    const prefixed = await createTestApp({ publicUrl: 'http://example.com/auth/' });
    await addIdentityProvider(prefixed);
    const cleared = await throughProvider(prefixed, signInPath('acme', '/done'), upstreamAccount());
    const started = await prefixed.app.request(signInPath('acme', '/done'));
    for (const response of [started, cleared]) {
      const attributes = responseCookies(response).get('uas_oauth')?.attributes;
      expect(attributes?.get('path')).toBe('/auth/v1/oauth/');
      expect(attributes?.has('secure')).toBe(false);
    }
  });

  it.each([
    ['a foreign origin', { redirect_to: 'https://evil.example/cb' }, 'redirect_to'],
    ['a scheme-relative URL', { redirect_to: '//evil.example' }, 'redirect_to'],
    ['javascript:', { redirect_to: 'javascript:alert(1)' }, 'redirect_to'],
    ['userinfo', { redirect_to: `${TEST_APP_ORIGIN}@evil.example/` }, 'redirect_to'],
    ['no redirect_to', { redirect_to: undefined }, 'redirect_to'],
    ['a short challenge', { code_challenge: 'abc' }, 'code_challenge'],
    ['no challenge', { code_challenge: undefined }, 'code_challenge'],
    ['the plain method', { code_challenge_method: 'plain' }, 'code_challenge_method'],
  ])('answers %s with 422 naming the parameter, and redirects nowhere', async (_, change, parameter) => {
    const query = Object.entries({ redirect_to: '/done', code_challenge: APP_CHALLENGE, ...change }).filter(
      (entry): entry is [string, string] => entry[1] !== undefined,
    );
    const response = await t.app.request(`/v1/oauth/acme/authorize?${new URLSearchParams(query)}`);
    expect(response.status).toBe(422);
    expect(response.headers.get('location')).toBeNull();
    expect(response.headers.getSetCookie()).toEqual([]);
    const { errors } = await response.json();
    expect(errors).toMatchObject([{ code: 'invalid_attribute', source: { parameter } }]);
  });

  it(`limits the starts per client address to ${DEFAULT_OAUTH_STARTS_PER_MINUTE} a minute, then 429 with Retry-After`, async () => {
    const limit = DEFAULT_OAUTH_STARTS_PER_MINUTE;
    const answered = await Promise.all(Array.from({ length: limit }, () => t.app.request(signInPath('acme', '/done'))));
    expect(answered.map((response) => response.status)).toEqual(Array.from({ length: limit }, () => 302));
    t.clock.advance(20);
    const refused = await t.app.request(signInPath('acme', '/done'));
    expect([refused.status, (await refused.json()).errors[0].code]).toEqual([429, 'too_many_attempts']);
    expect(refused.headers.get('retry-after')).toBe('40');
    expect(refused.headers.getSetCookie()).toEqual([]);
    t.clock.advance(40);
    expect((await t.app.request(signInPath('acme', '/done'))).status).toBe(302);
  });

  it('answers an unknown or disabled provider with 404', async () => {
    await addIdentityProvider(t, { slug: 'off', enabled: false });
    for (const slug of ['nope', 'off']) {
      const response = await t.app.request(signInPath(slug, '/done'));
      expect(response.status).toBe(404);
      expect((await response.json()).errors[0].code).toBe('not_found');
    }
  });
});

describe('the callback', () => {
  it('sends the browser to redirect_to with a one-time code in its query (fragment kept), and clears the cookie', async () => {
    const response = await throughProvider(t, signInPath('acme', '/done?tab=a b#top'), upstreamAccount());
    expect(response.status).toBe(302);
    const location = response.headers.get('location') ?? '';
    expect(location).toMatch(/^\/done\?tab=a\+b&code=[^&#]+#top$/);
    expect(responseCookies(response).get('uas_oauth')?.attributes.get('max-age')).toBe('0');
  });

  it('keeps an allowed origin, and sends errors there as ?error=<code>', async () => {
    await t.createUser({ email: 'ann@example.com' });
    const response = await throughProvider(t, signInPath('acme', `${TEST_APP_ORIGIN}/cb`), upstreamAccount());
    expect(response.status).toBe(302);
    expect(response.headers.get('location')).toBe(`${TEST_APP_ORIGIN}/cb?error=identity_not_linked`);
  });

  it('answers HEAD at /authorize and the callback with 405 and spends nothing: the GET that follows still works', async () => {
    const headStart = await t.app.request(signInPath('acme', '/done'), { method: 'HEAD' });
    expect([headStart.status, headStart.headers.get('allow')]).toEqual([405, 'GET']);
    expect(headStart.headers.getSetCookie()).toEqual([]);
    const started = await t.app.request(signInPath('acme', '/done'));
    const state = new URL(started.headers.get('location') ?? '').searchParams.get('state') ?? '';
    const params = new URLSearchParams(t.upstream.consent(state, upstreamAccount()));
    const cookie = { Cookie: started.headers.getSetCookie()[0]?.split(';')[0] ?? '' };
    const head = await t.app.request(`/v1/oauth/acme/callback?${params}`, { method: 'HEAD', headers: cookie });
    expect([head.status, head.headers.get('allow')]).toEqual([405, 'GET, POST']);
    const back = await t.app.request(`/v1/oauth/acme/callback?${params}`, { headers: cookie });
    expect(back.status).toBe(302);
    expect(locationOf(back).searchParams.get('code')).toMatch(/.{16,}/);
  });

  it("answers a provider's refusal at redirect_to with identity_provider_error, never its own words", async () => {
    const started = await t.app.request(signInPath('acme', '/done'));
    const state = new URL(started.headers.get('location') ?? '').searchParams.get('state') ?? '';
    const cookie = { Cookie: started.headers.getSetCookie()[0]?.split(';')[0] ?? '' };
    const query = new URLSearchParams({ state, error: 'access_denied', error_description: 'Nope <script>' });
    const response = await t.app.request(`/v1/oauth/acme/callback?${query}`, { headers: cookie });
    expect(response.headers.get('location')).toBe('/done?error=identity_provider_error');
  });

  it('answers a state without its cookie, another browser, or used twice with 400 and no redirect', async () => {
    const started = await t.app.request(signInPath('acme', '/done'));
    const state = new URL(started.headers.get('location') ?? '').searchParams.get('state') ?? '';
    const params = new URLSearchParams(t.upstream.consent(state, upstreamAccount()));
    const callback = (cookie?: string) =>
      t.app.request(`/v1/oauth/acme/callback?${params}`, { headers: cookie ? { Cookie: cookie } : {} });
    const own = started.headers.getSetCookie()[0]?.split(';')[0] ?? '';
    for (const response of [await callback(), await callback('uas_oauth=someone-else')]) {
      expect(response.status).toBe(400);
      expect(response.headers.get('location')).toBeNull();
      expect((await response.json()).errors[0].code).toBe('invalid_oauth_state');
    }
    expect((await callback(own)).status).toBe(302);
    const again = await callback(own);
    expect(again.status).toBe(400);
    expect(again.headers.get('location')).toBeNull();
  });

  it("takes a provider's form POST (Apple) to the GET callback with the same parameters: 303", async () => {
    const response = await t.app.request('/v1/oauth/acme/callback', {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: 'state=s1&code=c1&user=%7B%22name%22%3A1%7D',
    });
    expect(response.status).toBe(303);
    const location = new URL(response.headers.get('location') ?? '');
    expect(location.href.startsWith('https://id.example.com/v1/oauth/acme/callback?')).toBe(true);
    expect(Object.fromEntries(location.searchParams)).toEqual({ state: 's1', code: 'c1', user: '{"name":1}' });
  });

  it("takes whatever parameters a provider adds (Google's authuser, prompt)", async () => {
    const response = await t.app.request('/v1/oauth/acme/callback?state=x&code=y&authuser=0&prompt=none');
    expect((await response.json()).errors[0].code).toBe('invalid_oauth_state');
  });
});

describe('POST /v1/oauth/token', () => {
  async function signedInCode(redirectTo = '/done') {
    const response = await throughProvider(t, signInPath('acme', redirectTo), upstreamAccount());
    return locationOf(response).searchParams.get('code') ?? '';
  }

  it('answers the session record as /v1/login does, amr fed, once', async () => {
    const code = await signedInCode();
    const response = await redeem(code);
    expect(response.status).toBe(200);
    const { data } = await response.json();
    const user = await t.repositories.users.findByEmail('ann@example.com');
    expect(data).toMatchObject({ type: 'users', id: user?.id });
    expect(JSON.parse(atob(data.attributes.access_token.slice('fake.'.length)))).toMatchObject({ amr: ['fed'] });
    const me = await t.app.request('/v1/users/me', {
      headers: { Authorization: `Bearer ${data.attributes.access_token}` },
    });
    expect((await me.json()).data.attributes.email).toBe('ann@example.com');
    const login = await (await t.app.request('/v1/openapi.json')).json();
    expect(login.paths['/v1/oauth/token'].post.responses['200'].content).toEqual(
      login.paths['/v1/login'].post.responses['200'].content,
    );
    const again = await redeem(code);
    expect(again.status).toBe(400);
    expect((await again.json()).errors[0].code).toBe('invalid_oauth_code');
  });

  it('refuses a code issued before its provider was disabled or deleted: 400 invalid_oauth_code', async () => {
    const provider = await t.repositories.identityProviders.findBySlug('acme');
    const code = await signedInCode();
    await t.repositories.identityProviders.update(provider?.id ?? '', (current) => ({
      provider: { ...current, enabled: false },
      audit: null,
    }));
    const refused = await redeem(code);
    expect([refused.status, (await refused.json()).errors[0].code]).toEqual([400, 'invalid_oauth_code']);
  });

  it('refuses a wrong verifier with 400 invalid_oauth_code, and the code is spent', async () => {
    const code = await signedInCode();
    const wrong = await redeem(code, `${APP_VERIFIER}x`);
    expect(wrong.status).toBe(400);
    expect((await wrong.json()).errors[0].code).toBe('invalid_oauth_code');
    expect((await redeem(code)).status).toBe(400);
  });

  it('answers the second step for a user with a factor', async () => {
    const { data } = await (await redeem(await signedInCode())).json();
    await t.enrol.totp('user', data.id, t.clock.now());
    const response = await redeem(await signedInCode());
    expect((await response.json()).data).toMatchObject({ type: 'mfa_challenges', attributes: { kinds: ['totp'] } });
  });

  it('refuses a body without the verifier or with another member (422)', async () => {
    const missing = await t.app.request('/v1/oauth/token', jsonInit('POST', { code: 'x' }));
    expect(missing.status).toBe(422);
    const extra = await t.app.request(
      '/v1/oauth/token',
      jsonInit('POST', { code: 'x', code_verifier: APP_VERIFIER, x: 1 }),
    );
    expect(extra.status).toBe(422);
  });

  it('lets an allowed browser origin read the answer (CORS), as the other end-user routes', async () => {
    t = await createTestApp({ corsOrigins: [TEST_APP_ORIGIN] });
    await addIdentityProvider(t);
    const response = await redeem(await signedInCode(), APP_VERIFIER, { Origin: TEST_APP_ORIGIN });
    expect(response.status).toBe(200);
    expect(response.headers.get('access-control-allow-origin')).toBe(TEST_APP_ORIGIN);
    const preflight = await t.app.request('/v1/oauth/token', {
      method: 'OPTIONS',
      headers: { Origin: TEST_APP_ORIGIN, 'Access-Control-Request-Method': 'POST' },
    });
    expect(preflight.status).toBe(204);
  });
});
