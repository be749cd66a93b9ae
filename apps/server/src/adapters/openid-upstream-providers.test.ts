import {
  IdentityProviderError,
  type IdentityProvider,
  type IdentityProviderKind,
  type UpstreamClient,
} from '@uas/domain';
import * as oidc from 'openid-client';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { AppleFake } from '../../test/support/apple-fake';
import { answerJson, startLoopbackServer, visitAuthorizationUrl } from '../../test/support/fake-provider-server';
import { GithubFake } from '../../test/support/github-fake';
import { OidcUpstream } from '../../test/support/oidc-upstream';
import { OpenIdUpstreamProviders } from './openid-upstream-providers';

const REDIRECT_URI = 'http://127.0.0.1:3000/v1/oauth/test/callback';
const CLIENT_ID = 'uas-client';
const CLIENT_SECRET = 'the-client-secret-of-uas';

const loopback = { allowHttp: true, allowPrivateAddresses: true };
const adapters: OpenIdUpstreamProviders[] = [];
const adapterWith = (options: ConstructorParameters<typeof OpenIdUpstreamProviders>[0] = loopback) => {
  const adapter = new OpenIdUpstreamProviders(options);
  adapters.push(adapter);
  return adapter;
};
afterEach(() => {
  for (const adapter of adapters.splice(0)) adapter.close();
});

let providers = 0;
function clientOf(kind: IdentityProviderKind, issuer: string, extra: Partial<IdentityProvider> = {}): UpstreamClient {
  const provider: IdentityProvider = {
    id: `provider-${++providers}`,
    slug: 'test',
    kind,
    issuer,
    clientId: CLIENT_ID,
    clientSecret: null,
    scopes: [],
    enabled: true,
    autoLink: false,
    created: new Date(),
    updated: new Date(),
    ...extra,
  };
  return { provider, clientSecret: CLIENT_SECRET, redirectUri: REDIRECT_URI };
}

/** One trip: the adapter's authorization URL, the provider's answer as the browser brings it back, the adapter's completion. */
async function signIn(
  adapter: OpenIdUpstreamProviders,
  client: UpstreamClient,
  alter: (params: Record<string, string>) => Record<string, string> = (params) => params,
) {
  const state = oidc.randomState();
  const nonce = oidc.randomNonce();
  const codeVerifier = oidc.randomPKCECodeVerifier();
  const codeChallenge = await oidc.calculatePKCECodeChallenge(codeVerifier);
  const url = new URL(await adapter.authorizationUrl(client, { state, nonce, codeChallenge }));
  const params = alter(await visitAuthorizationUrl(url.href));
  const account = adapter.complete(client, { params, state, nonce, codeVerifier });
  return { url, params, account, state, nonce, codeChallenge };
}

/** The IdentityProviderError `promise` fails with; its reason must carry no secret, code or token. */
async function refusal(promise: Promise<unknown>, secrets: readonly string[] = []): Promise<string> {
  const error = await promise.then(
    () => null,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(IdentityProviderError);
  const { reason, message } = error as IdentityProviderError;
  for (const secret of [CLIENT_SECRET, ...secrets]) expect(`${reason} ${message}`).not.toContain(secret);
  return reason;
}

describe('OpenIdUpstreamProviders against an OpenID Connect provider on loopback', () => {
  const upstream = new OidcUpstream();
  beforeAll(() => upstream.start());
  afterAll(() => upstream.stop());
  afterEach(() => {
    upstream.claims = { sub: 'upstream-user-1' };
    upstream.userinfo = {};
    upstream.tampering = null;
  });

  it('sends the browser with state, nonce and a PKCE S256 challenge, its redirect URI and scopes', async () => {
    const client = clientOf('oidc', upstream.issuer, { scopes: ['groups', 'email'] });
    const { url, state, nonce, codeChallenge, account } = await signIn(adapterWith(), client);
    await account;
    expect(url.origin).toBe(upstream.issuer);
    expect(Object.fromEntries(url.searchParams)).toMatchObject({
      response_type: 'code',
      client_id: CLIENT_ID,
      redirect_uri: REDIRECT_URI,
      scope: 'openid email profile groups',
      state,
      nonce,
      code_challenge: codeChallenge,
      code_challenge_method: 'S256',
    });
  });

  it('answers the account the verified ID token vouches for, its email as the provider gave it (the domain normalises it)', async () => {
    upstream.claims = { sub: 'user-7', email: 'Ada@Example.COM', email_verified: true, name: 'Ada' };
    const { account } = await signIn(adapterWith(), clientOf('oidc', upstream.issuer));
    expect(await account).toEqual({ subject: 'user-7', email: 'Ada@Example.COM', emailVerified: true, name: 'Ada' });
  });

  it.each([
    ['false', false],
    ['the string "true"', 'true'],
    ['absent', undefined],
  ])('does not vouch for the email when email_verified is %s', async (_, emailVerified) => {
    upstream.claims = { sub: 'user-8', email: 'ada@example.com', email_verified: emailVerified };
    for (const kind of ['oidc', 'google'] as const) {
      const { account } = await signIn(adapterWith(), clientOf(kind, upstream.issuer));
      expect(await account).toMatchObject({ email: 'ada@example.com', emailVerified: false });
    }
  });

  it('reads the email from userinfo when the ID token has none', async () => {
    upstream.userinfo = { email: 'grace@example.com', email_verified: true, name: 'Grace' };
    const { account } = await signIn(adapterWith(), clientOf('oidc', upstream.issuer));
    expect(await account).toEqual({
      subject: 'upstream-user-1',
      email: 'grace@example.com',
      emailVerified: true,
      name: 'Grace',
    });
  });

  it.each([
    ['nonce', /nonce/],
    ['issuer', /iss/],
    ['audience', /aud/],
    ['signature', /signature/i],
    ['expired', /exp|timestamp/],
  ] as const)('refuses an ID token with a wrong %s', async (tampering, reason) => {
    upstream.tampering = tampering;
    upstream.claims = { sub: 'user-9', email: 'ada@example.com', email_verified: true };
    const { account, params } = await signIn(adapterWith(), clientOf('oidc', upstream.issuer));
    expect(await refusal(account, [params.code!])).toMatch(reason);
  });

  it('refuses a callback whose state is not the one expected, and a code exchanged without its verifier', async () => {
    const adapter = adapterWith();
    const client = clientOf('oidc', upstream.issuer);
    const forged = await signIn(adapter, client, (params) => ({ ...params, state: oidc.randomState() }));
    expect(await refusal(forged.account)).toMatch(/state/);

    const { account } = await signIn(adapter, client, (params) => params);
    await account; // the first code is spent: a second trip with a foreign verifier
    const state = oidc.randomState();
    const nonce = oidc.randomNonce();
    const codeChallenge = await oidc.calculatePKCECodeChallenge(oidc.randomPKCECodeVerifier());
    const url = await adapter.authorizationUrl(client, { state, nonce, codeChallenge });
    const params = await visitAuthorizationUrl(url);
    const wrongVerifier = adapter.complete(client, {
      params,
      state,
      nonce,
      codeVerifier: oidc.randomPKCECodeVerifier(),
    });
    await refusal(wrongVerifier, [params.code!]);
  });

  it('turns the provider’s error answer at the callback into IdentityProviderError', async () => {
    const { account } = await signIn(adapterWith(), clientOf('oidc', upstream.issuer), (params) => ({
      state: params.state!,
      error: 'access_denied',
      error_description: 'the user said no',
    }));
    expect(await refusal(account)).toMatch(/access_denied/);
  });

  describe('the microsoft preset (nOAuth: email is no proof)', () => {
    it('vouches for the email only with xms_edov true, and names the account by tenant and object id', async () => {
      const client = clientOf('microsoft', upstream.issuer);
      const claims = { sub: 'pairwise', tid: 'tenant-1', oid: 'object-1', email: 'ceo@example.com' };
      upstream.claims = { ...claims, email_verified: true };
      expect(await (await signIn(adapterWith(), client)).account).toMatchObject({
        subject: 'tenant-1:object-1',
        emailVerified: false,
      });
      upstream.claims = { ...claims, xms_edov: true };
      expect(await (await signIn(adapterWith(), client)).account).toMatchObject({
        subject: 'tenant-1:object-1',
        email: 'ceo@example.com',
        emailVerified: true,
      });
      upstream.claims = { sub: 'pairwise', email: 'ceo@example.com', xms_edov: 'true' };
      expect(await (await signIn(adapterWith(), client)).account).toMatchObject({
        subject: 'pairwise',
        emailVerified: false,
      });
    });
  });

  it('discovers a provider once per version of its record', async () => {
    const apple = await new AppleFake(CLIENT_ID, CLIENT_SECRET).start();
    try {
      const adapter = adapterWith();
      const client = clientOf('oidc', apple.issuer);
      const request = { state: 's', nonce: 'n', codeChallenge: 'c' };
      await adapter.authorizationUrl(client, request);
      await adapter.authorizationUrl(client, request);
      expect(apple.requests.filter((path) => path.includes('well-known'))).toHaveLength(1);
      const changed = { ...client, provider: { ...client.provider, updated: new Date(Date.now() + 1000) } };
      await adapter.authorizationUrl(changed, request);
      expect(apple.requests.filter((path) => path.includes('well-known'))).toHaveLength(2);
    } finally {
      await apple.stop();
    }
  });
});

describe('the github preset (OAuth 2, no ID token)', () => {
  const github = new GithubFake(CLIENT_ID, CLIENT_SECRET);
  beforeAll(() => github.start());
  afterAll(() => github.stop());

  it('asks for user:email with state and PKCE, and names the account by its numeric id', async () => {
    github.emails = [
      { email: 'old@example.com', primary: false, verified: true },
      { email: 'Octocat@Example.com', primary: true, verified: true },
    ];
    const { url, state, account } = await signIn(adapterWith(), clientOf('github', github.issuer));
    expect(`${url.origin}${url.pathname}`).toBe(`${github.issuer}/login/oauth/authorize`);
    expect(Object.fromEntries(url.searchParams)).toMatchObject({
      scope: 'read:user user:email',
      state,
      code_challenge_method: 'S256',
    });
    expect(url.searchParams.has('nonce')).toBe(false);
    expect(await account).toEqual({
      subject: '4242',
      email: 'Octocat@Example.com',
      emailVerified: true,
      name: 'Mona Lisa Octocat',
    });
  });

  it('vouches only for a primary email GitHub marks verified', async () => {
    github.emails = [
      { email: 'verified@example.com', primary: false, verified: true },
      { email: 'primary@example.com', primary: true, verified: false },
    ];
    const { account } = await signIn(adapterWith(), clientOf('github', github.issuer));
    expect(await account).toMatchObject({ email: 'primary@example.com', emailVerified: false });
  });

  it('refuses when GitHub refuses the code (its error comes in a 200 answer)', async () => {
    const client = { ...clientOf('github', github.issuer), clientSecret: 'a-wrong-secret' };
    const { account, params } = await signIn(adapterWith(), client);
    await refusal(account, ['a-wrong-secret', params.code!]);
  });
});

describe('the apple preset (form_post, email_verified as a string)', () => {
  const apple = new AppleFake(CLIENT_ID, CLIENT_SECRET);
  beforeAll(() => apple.start());
  afterAll(() => apple.stop());

  it('asks for a form POST, takes the name from the first sign-in’s user field, and reads "true" as verified', async () => {
    const client = clientOf('apple', apple.issuer);
    const first = await signIn(adapterWith(), client);
    expect(first.url.searchParams.get('response_mode')).toBe('form_post');
    expect(first.url.searchParams.get('scope')).toBe('openid name email');
    expect(first.params.user).toBeDefined();
    expect(await first.account).toEqual({
      subject: apple.sub,
      email: apple.email,
      emailVerified: true,
      name: 'Ada Lovelace',
    });
    const again = await signIn(adapterWith(), client);
    expect(again.params.user).toBeUndefined();
    expect(await again.account).toMatchObject({ subject: apple.sub, name: null, emailVerified: true });
  });

  it('does not vouch for the email when Apple says "false"', async () => {
    apple.emailVerified = 'false';
    try {
      const { account } = await signIn(adapterWith(), clientOf('apple', apple.issuer));
      expect(await account).toMatchObject({ email: apple.email, emailVerified: false });
    } finally {
      apple.emailVerified = 'true';
    }
  });
});

describe('the network rules toward providers', () => {
  let hits = 0;
  let server: Awaited<ReturnType<typeof startLoopbackServer>>;
  beforeAll(async () => {
    server = await startLoopbackServer((_, response) => {
      hits++;
      answerJson(response, 404, {});
    });
  });
  afterAll(() => server.stop());

  it.each(['127.0.0.1', '[::1]', '169.254.169.254', '10.0.0.1', '[::ffff:127.0.0.1]', 'localhost'])(
    'refuses an issuer at %s unless private addresses are allowed, before anything is sent',
    async (host) => {
      const port = new URL(server.origin).port;
      const adapter = adapterWith({ allowHttp: true, allowPrivateAddresses: false, timeoutMs: 2_000 });
      hits = 0;
      // GitHub is not contacted before a sign-in: `check` judges its host only if it is an address literal.
      for (const kind of host === 'localhost' ? (['oidc'] as const) : (['oidc', 'github'] as const)) {
        const reason = await refusal(adapter.check(clientOf(kind, `http://${host}:${port}`)));
        expect(reason).toMatch(/address not allowed .*IDENTITY_PROVIDER_ALLOW_PRIVATE_ADDRESSES/);
        expect(reason).not.toMatch(/127|::1|localhost|169\.254|10\.0/);
      }
      expect(hits).toBe(0);
    },
  );

  it('refuses a GitHub host whose name resolves to loopback when the code is exchanged, before anything is sent', async () => {
    const adapter = adapterWith({ allowHttp: true, allowPrivateAddresses: false });
    hits = 0;
    const callback = { params: { code: 'a-code', state: 'a-state' }, state: 'a-state', nonce: 'n', codeVerifier: 'v' };
    const client = clientOf('github', `http://localhost:${new URL(server.origin).port}`);
    expect(await refusal(adapter.complete(client, callback), ['a-code'])).toMatch(
      /^code exchange: address not allowed/,
    );
    expect(hits).toBe(0);
  });

  it('refuses an http issuer unless http is allowed', async () => {
    const adapter = adapterWith({ allowHttp: false, allowPrivateAddresses: true });
    hits = 0;
    expect(await refusal(adapter.check(clientOf('oidc', server.origin)))).toMatch(/IDENTITY_PROVIDER_ALLOW_HTTP/);
    expect(hits).toBe(0);
  });

  it('does not follow a redirect: its target receives nothing', async () => {
    let targetHits = 0;
    const target = await startLoopbackServer((_, response) => {
      targetHits++;
      answerJson(response, 200, {});
    });
    const redirecting = await startLoopbackServer((_, response) => {
      response.writeHead(302, { location: `${target.origin}/.well-known/openid-configuration` });
      response.end();
    });
    try {
      await refusal(adapterWith().check(clientOf('oidc', redirecting.origin)));
      expect(targetHits).toBe(0);
    } finally {
      await Promise.all([target.stop(), redirecting.stop()]);
    }
  });

  it('gives up after its timeout', async () => {
    const silent = await startLoopbackServer(() => {});
    try {
      const adapter = adapterWith({ ...loopback, timeoutMs: 200 });
      expect(await refusal(adapter.check(clientOf('oidc', silent.origin)))).toMatch(/no answer within 0.2 s/);
    } finally {
      await silent.stop();
    }
  });
});
