import { beforeEach, describe, expect, it } from 'vitest';
import {
  addIdentityProvider,
  APP_CHALLENGE,
  APP_VERIFIER,
  bearer,
  createTestApp,
  jsonInit,
  signInPath,
  throughProvider,
  upstreamAccount,
  type TestApp,
} from '../testing';

let t: TestApp;
let ann: Record<string, string>;

beforeEach(async () => {
  t = await createTestApp();
  await addIdentityProvider(t);
  await t.createUser({ email: 'ann@example.com' });
  ann = bearer((await t.loginUser('ann@example.com', 'user-password-1')).accessToken);
});

const codeIn = (response: Response) =>
  new URL(response.headers.get('location') ?? '', 'https://x.invalid').searchParams.get('code') ?? '';

/** Begins a link as `headers`' user and carries it through the browser and the provider: the code. */
async function linkCode(headers: Record<string, string>, subject = 'gh-1') {
  const begun = await t.app.request(
    '/v1/users/me/identities',
    jsonInit('POST', { provider: 'acme', redirect_to: '/linked', code_challenge: APP_CHALLENGE }, headers),
  );
  expect(begun.status).toBe(201);
  const { data } = await begun.json();
  expect(data).toMatchObject({ type: 'identity_link_requests', attributes: { expires: expect.any(String) } });
  const authorize = new URL(data.attributes.authorize_url);
  expect(authorize.origin + authorize.pathname).toBe('https://id.example.com/v1/oauth/acme/authorize');
  const callback = await throughProvider(t, authorize.pathname + authorize.search, upstreamAccount({ subject }));
  expect(callback.headers.get('location')).toMatch(/^\/linked\?code=/);
  return codeIn(callback);
}

const complete = (code: string, headers: Record<string, string>, code_verifier = APP_VERIFIER) =>
  t.app.request('/v1/users/me/identities/complete', jsonInit('POST', { code, code_verifier }, headers));

describe('/v1/users/me/identities', () => {
  it('links through the browser and the provider, completes with the same bearer, lists and unlinks it', async () => {
    const completed = await complete(await linkCode(ann), ann);
    expect(completed.status).toBe(201);
    const { data } = await completed.json();
    expect(data).toMatchObject({
      type: 'identities',
      attributes: {
        provider: 'acme',
        provider_kind: 'oidc',
        subject: 'gh-1',
        email: 'ann@example.com',
        email_verified: true,
        last_sign_in: null,
      },
    });
    const listed = await (await t.app.request('/v1/users/me/identities', { headers: ann })).json();
    expect(listed).toEqual({ data: [data], meta: { total: 1 } });
    const removed = await t.app.request(`/v1/users/me/identities/${data.id}`, { method: 'DELETE', headers: ann });
    expect(removed.status).toBe(204);
    const gone = await t.app.request(`/v1/users/me/identities/${data.id}`, { method: 'DELETE', headers: ann });
    expect(gone.status).toBe(404);
  });

  it("refuses a link's code completed with another user's bearer (400), and links nothing", async () => {
    await t.createUser({ email: 'bob@example.com' });
    const bob = bearer((await t.loginUser('bob@example.com', 'user-password-1')).accessToken);
    const code = await linkCode(ann);
    const refused = await complete(code, bob);
    expect(refused.status).toBe(400);
    expect((await refused.json()).errors[0].code).toBe('invalid_oauth_code');
    const listed = await (await t.app.request('/v1/users/me/identities', { headers: ann })).json();
    expect(listed.data).toEqual([]);
  });

  it("refuses an account at the provider that is another user's already (409)", async () => {
    await t.createUser({ email: 'bob@example.com' });
    const bob = bearer((await t.loginUser('bob@example.com', 'user-password-1')).accessToken);
    expect((await complete(await linkCode(bob), bob)).status).toBe(201);
    const refused = await complete(await linkCode(ann), ann);
    expect(refused.status).toBe(409);
    expect((await refused.json()).errors[0].code).toBe('identity_already_linked');
  });

  it("refuses to remove a user's last way in (409 last_sign_in_method)", async () => {
    const signedIn = await throughProvider(
      t,
      signInPath('acme', '/done'),
      upstreamAccount({ subject: 'solo', email: 'solo@example.com' }),
    );
    const session = await t.app.request(
      '/v1/oauth/token',
      jsonInit('POST', { code: codeIn(signedIn), code_verifier: APP_VERIFIER }),
    );
    const solo = bearer((await session.json()).data.attributes.access_token);
    const [identity] = (await (await t.app.request('/v1/users/me/identities', { headers: solo })).json()).data;
    const refused = await t.app.request(`/v1/users/me/identities/${identity.id}`, { method: 'DELETE', headers: solo });
    expect(refused.status).toBe(409);
    expect((await refused.json()).errors[0].code).toBe('last_sign_in_method');
  });

  it('answers a hand-off handle used twice with 400 and no redirect', async () => {
    const begun = await t.app.request(
      '/v1/users/me/identities',
      jsonInit('POST', { provider: 'acme', redirect_to: '/linked', code_challenge: APP_CHALLENGE }, ann),
    );
    const url = new URL((await begun.json()).data.attributes.authorize_url);
    expect((await t.app.request(url.pathname + url.search)).status).toBe(302);
    const again = await t.app.request(url.pathname + url.search);
    expect(again.status).toBe(400);
    expect(again.headers.get('location')).toBeNull();
  });

  it('refuses a bad body (422 at the member), an unknown provider (404), and no token (401)', async () => {
    const start = (body: unknown, headers = ann) =>
      t.app.request('/v1/users/me/identities', jsonInit('POST', body, headers));
    const hostile = await start({ provider: 'acme', redirect_to: '//evil.example', code_challenge: APP_CHALLENGE });
    expect(hostile.status).toBe(422);
    expect((await hostile.json()).errors[0].source).toEqual({ pointer: '/redirect_to' });
    const short = await start({ provider: 'acme', redirect_to: '/ok', code_challenge: 'short' });
    expect((await short.json()).errors[0].source).toEqual({ pointer: '/code_challenge' });
    expect((await start({ provider: 'nope', redirect_to: '/ok', code_challenge: APP_CHALLENGE })).status).toBe(404);
    expect((await start({ provider: 'acme', redirect_to: '/ok', code_challenge: APP_CHALLENGE }, {})).status).toBe(401);
    expect((await t.app.request('/v1/users/me/identities')).status).toBe(401);
  });
});
