import { createLocalJWKSet, decodeProtectedHeader, jwtVerify, UnsecuredJWT } from 'jose';
import * as client from 'openid-client';
import { beforeAll, describe, expect, it } from 'vitest';
import { BACKENDS } from '../support/test-application';
import { USER_PASSWORD } from '../support/wire';
import { type PendingSignIn, RelyingParty, registerClient, useOpenIdProvider } from './op-test-plan-support';
import { authorize, left, type TestUser } from './user-agent';

/**
 * The OpenID Foundation's Basic OP certification test plan (oidcc-basic-certification-test-plan),
 * the discovery module of its Config plan and two modules of its RP-Initiated Logout plan, ported
 * module by module to run offline against the
 * real service over HTTP: openid-client is the relying party, a browser without a script engine
 * walks the service's own sign-in pages. Each test is named after the module it ports; what a
 * module leaves to a screenshot (an error page instead of a redirect, a second sign-in page) is
 * asserted on the answer itself.
 */

const REDIRECT_URI = 'https://rp.example/callback';
const SECOND_REDIRECT_URI = 'https://rp.example/second';
/** Every scope of the service: the Basic plan's `oidcc-scope-all`, for this service's catalogue. */
const ALL_SCOPES = 'openid email profile metadata app';

const errorOf = (url: URL) => url.searchParams.get('error');

describe.each(BACKENDS)('the Basic OP test plan, on %s', (backend) => {
  const op = useOpenIdProvider(backend);
  let user: TestUser;
  let rp: RelyingParty;
  let rpPost: RelyingParty;
  let secondRp: RelyingParty;
  let publicRp: RelyingParty;

  beforeAll(async () => {
    const created = await op().admin.createUser({
      email: `conformance-${backend}@example.com`,
      name: 'Grace Hopper',
      metadata: { theme: 'dark' },
      app: { plan: 'pro' },
    });
    user = { id: created.id, email: `conformance-${backend}@example.com`, password: USER_PASSWORD };
    const confidential = {
      type: 'confidential',
      redirect_uris: [REDIRECT_URI, SECOND_REDIRECT_URI],
      post_logout_redirect_uris: ['https://rp.example/'],
      scopes: ['openid', 'email', 'profile', 'metadata', 'app', 'offline_access'],
      first_party: true,
    };
    const first = await registerClient(op().admin, { ...confidential, name: 'Conformance client' });
    rp = await RelyingParty.of(op().issuer, first);
    rpPost = await RelyingParty.of(op().issuer, first, { auth: 'post' });
    secondRp = await RelyingParty.of(
      op().issuer,
      await registerClient(op().admin, { ...confidential, name: 'Conformance client 2' }),
    );
    publicRp = await RelyingParty.of(
      op().issuer,
      await registerClient(op().admin, {
        name: 'Conformance public client',
        type: 'public',
        redirect_uris: [REDIRECT_URI],
        scopes: ['openid', 'email', 'profile', 'offline_access'],
        first_party: true,
      }),
    );
  });

  /** A fresh browser signs in through `relyingParty`'s request (with `parameters`) and redeems the code. */
  async function signIn(relyingParty = rp, parameters: Record<string, string> = {}, agent = op().agent()) {
    const pending = await relyingParty.request(parameters);
    const { callback, shown } = await authorize(agent, pending.url, user);
    const tokens = await relyingParty.redeem(callback, pending);
    return { agent, pending, callback, shown, tokens, claims: tokens.claims()! };
  }

  describe('discovery (the Config plan)', () => {
    it('oidcc-discovery-endpoint-verification: the required fields, the issuer, https-ready endpoints, public keys only', async () => {
      const response = await fetch(`${op().issuer}/.well-known/openid-configuration`);
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toMatch(/^application\/json/);
      const metadata = await response.json();
      // oidcc-discovery-issuer-not-matching-config: the issuer is PUBLIC_URL without its trailing slash.
      expect(metadata.issuer).toBe(op().issuer);
      expect(metadata).toMatchObject({
        authorization_endpoint: `${op().issuer}/oidc/auth`,
        token_endpoint: `${op().issuer}/oidc/token`,
        userinfo_endpoint: `${op().issuer}/oidc/userinfo`,
        jwks_uri: `${op().issuer}/oidc/jwks`,
        revocation_endpoint: `${op().issuer}/oidc/revoke`,
        introspection_endpoint: `${op().issuer}/oidc/introspect`,
        end_session_endpoint: `${op().issuer}/oidc/logout`,
        response_types_supported: ['code'],
        code_challenge_methods_supported: ['S256'],
      });
      expect(metadata.subject_types_supported).toContain('public');
      expect(metadata.scopes_supported).toEqual(expect.arrayContaining(ALL_SCOPES.split(' ').concat('offline_access')));
      expect(metadata.grant_types_supported).toEqual(expect.arrayContaining(['authorization_code', 'refresh_token']));
      expect(metadata.grant_types_supported).not.toContain('implicit');
      expect(metadata.claims_supported).toEqual(
        expect.arrayContaining(['sub', 'email', 'email_verified', 'name', 'metadata', 'app']),
      );
      expect(metadata.token_endpoint_auth_methods_supported).toEqual(
        expect.arrayContaining(['client_secret_basic', 'client_secret_post']),
      );
      // RS256 is the specification's default and required of an OP; `none` is never offered.
      expect(metadata.id_token_signing_alg_values_supported).toContain('RS256');
      for (const field of Object.keys(metadata).filter((name) => name.endsWith('_alg_values_supported')))
        expect(metadata[field], field).not.toContain('none');
      expect(metadata.registration_endpoint).toBeUndefined();
      expect(metadata.request_uri_parameter_supported ?? false).toBe(false);

      const jwks = await (await fetch(metadata.jwks_uri)).json();
      expect(jwks.keys.length).toBeGreaterThan(0);
      for (const key of jwks.keys) {
        expect(key.kid).toEqual(expect.any(String));
        // EnsureServerJwksDoesNotContainPrivateOrSymmetricKeys
        for (const secret of ['d', 'p', 'q', 'dp', 'dq', 'qi', 'k']) expect(key[secret]).toBeUndefined();
      }
      expect(jwks.keys.some((key: { kty: string; alg?: string }) => key.kty === 'RSA')).toBe(true);
    });
  });

  describe('code flow and ID token', () => {
    it('oidcc-server: the code flow, its ID token claims (iss, aud, sub, exp, iat, nonce, at_hash) checked', async () => {
      const before = Math.floor(Date.now() / 1000);
      const { pending, callback, tokens, claims, shown } = await signIn();
      expect(shown).toEqual({ signIn: true, consent: false });
      // The answer carries the state back, and the issuer (RFC 9207), which openid-client checked.
      expect(callback.searchParams.get('state')).toBe(pending.checks.expectedState);
      expect(callback.searchParams.get('iss')).toBe(op().issuer);
      expect(claims.iss).toBe(op().issuer);
      // oidcc-id-token-aud-single-value: aud is the client alone.
      expect(claims.aud).toBe(rp.registered.clientId);
      expect(claims.sub).toBe(user.id);
      expect(claims.nonce).toBe(pending.checks.expectedNonce);
      expect(claims.iat).toBeGreaterThanOrEqual(before - 5);
      expect(claims.exp).toBeGreaterThan(claims.iat);
      // auth_time is required only when max_age asked for it (the max_age modules below).
      expect(claims.auth_time).toBeUndefined();
      // From the token endpoint at_hash is optional (OIDC Core 3.1.3.6) and c_hash applies only to hybrid flows.
      expect(claims.at_hash).toBeUndefined();
      expect(claims.c_hash).toBeUndefined();
      expect(tokens.token_type.toLowerCase()).toBe('bearer');
    });

    it('oidcc-server-client-secret-post: the client authenticates with client_secret_post', async () => {
      const { claims } = await signIn(rpPost);
      expect(claims.aud).toBe(rp.registered.clientId);
    });

    it('oidcc-response-type-missing: an authorization request without response_type is refused, the error back at the client', async () => {
      const pending = await rp.request();
      pending.url.searchParams.delete('response_type');
      const back = left(await op().agent().navigate(pending.url));
      expect(back.href.startsWith(REDIRECT_URI)).toBe(true);
      expect(errorOf(back)).toBe('invalid_request');
      expect(back.searchParams.get('code')).toBeNull();
    });

    it('oidcc-idtoken-signature: the ID token is signed with an advertised algorithm by a key of the jwks_uri, named by its kid', async () => {
      const { tokens } = await signIn();
      const header = decodeProtectedHeader(tokens.id_token!);
      const metadata = rp.config.serverMetadata();
      expect(metadata.id_token_signing_alg_values_supported).toContain(header.alg);
      const jwks = await (await fetch(metadata.jwks_uri!)).json();
      expect(jwks.keys.map((key: { kid: string }) => key.kid)).toContain(header.kid);
      const { payload } = await jwtVerify(tokens.id_token!, createLocalJWKSet(jwks), {
        issuer: op().issuer,
        audience: rp.registered.clientId,
      });
      expect(payload.sub).toBe(user.id);
    });

    it('oidcc-ensure-request-without-nonce-succeeds-for-code-flow: no nonce asked, none in the ID token', async () => {
      const { claims } = await signIn(rp, { nonce: '' });
      expect(claims.nonce).toBeUndefined();
    });

    it.each([
      ['oidcc-ensure-request-with-unknown-parameter-succeeds', { extra: 'foobar' }],
      ['oidcc-display-page', { display: 'page' }],
      ['oidcc-display-popup', { display: 'popup' }],
      ['oidcc-ui-locales', { ui_locales: 'se' }],
      ['oidcc-claims-locales', { claims_locales: 'se' }],
      ['oidcc-ensure-request-with-acr-values-succeeds', { acr_values: '1 2' }],
      ['oidcc-login-hint', { login_hint: 'someone@example.com' }],
      ['oidcc-claims-essential', { claims: JSON.stringify({ userinfo: { name: { essential: true } } }) }],
    ])('%s: the request succeeds', async (_module, parameters) => {
      const { claims } = await signIn(rp, { scope: 'openid profile', ...parameters });
      expect(claims.sub).toBe(user.id);
    });
  });

  describe('alg none refused (oidcc-idtoken-unsigned and the unsigned request object, as refusals)', () => {
    it('oidcc-unsigned-request-object-supported-correctly-or-rejected-as-unsupported: an unsigned request object (alg none) gets an error, never a code', async () => {
      const pending = await rp.request();
      const requestObject = new UnsecuredJWT({
        ...Object.fromEntries(pending.url.searchParams),
        iss: rp.registered.clientId,
        aud: op().issuer,
      }).encode();
      expect(decodeProtectedHeader(requestObject).alg).toBe('none');
      const url = new URL(pending.url);
      url.searchParams.set('request', requestObject);
      const back = left(await op().agent().navigate(url));
      expect(['request_not_supported', 'invalid_request_object']).toContain(errorOf(back));
      expect(back.searchParams.get('code')).toBeNull();
    });

    it('oidcc-request-uri-unsigned-supported-correctly-or-rejected-as-unsupported: request_uri is refused as unsupported', async () => {
      const pending = await rp.request();
      const url = new URL(pending.url);
      url.searchParams.set('request_uri', 'https://rp.example/request.jwt');
      const back = left(await op().agent().navigate(url));
      expect(errorOf(back)).toBe('request_uri_not_supported');
    });

    it('oidcc-idtoken-unsigned: an unsigned ID token is never accepted back as id_token_hint', async () => {
      const { agent, claims } = await signIn();
      const unsigned = new UnsecuredJWT({ ...claims }).setIssuer(op().issuer).encode();
      const pending = await rp.request({ prompt: 'none', id_token_hint: unsigned });
      const back = left(await agent.navigate(pending.url));
      expect(errorOf(back)).toBe('invalid_request');
      expect(back.searchParams.get('code')).toBeNull();
    });
  });

  describe('userinfo', () => {
    it('oidcc-userinfo-get: GET with the access token in the Authorization header', async () => {
      const { tokens } = await signIn(rp, { scope: 'openid email' });
      const userinfo = await client.fetchUserInfo(rp.config, tokens.access_token, user.id);
      expect(userinfo).toMatchObject({ sub: user.id, email: user.email });
    });

    it('oidcc-userinfo-post-header: POST with the access token in the Authorization header', async () => {
      const { tokens } = await signIn(rp, { scope: 'openid email' });
      const response = await fetch(`${op().issuer}/oidc/userinfo`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${tokens.access_token}` },
      });
      expect(response.status).toBe(200);
      expect(await response.json()).toMatchObject({ sub: user.id, email: user.email });
    });

    it('oidcc-userinfo-post-body: POST with the access token as the form field access_token', async () => {
      const { tokens } = await signIn(rp, { scope: 'openid email' });
      const response = await fetch(`${op().issuer}/oidc/userinfo`, {
        method: 'POST',
        body: new URLSearchParams({ access_token: tokens.access_token }),
      });
      expect(response.status).toBe(200);
      expect(await response.json()).toMatchObject({ sub: user.id, email: user.email });
    });
  });

  describe('scopes', () => {
    const userinfoFor = async (scope: string) => {
      const { tokens, claims } = await signIn(rp, { scope });
      return { claims, userinfo: await client.fetchUserInfo(rp.config, tokens.access_token, user.id) };
    };

    it('oidcc-scope-profile: name', async () => {
      const { userinfo } = await userinfoFor('openid profile');
      expect(userinfo).toEqual({ sub: user.id, name: 'Grace Hopper' });
    });

    it('oidcc-scope-email: email and email_verified', async () => {
      const { userinfo } = await userinfoFor('openid email');
      expect(userinfo).toEqual({ sub: user.id, email: user.email, email_verified: expect.any(Boolean) });
    });

    it("oidcc-scope-all: every scope of the service's catalogue (metadata and app, this service's own, included)", async () => {
      const { userinfo, claims } = await userinfoFor(ALL_SCOPES);
      expect(userinfo).toEqual({
        sub: user.id,
        email: user.email,
        email_verified: expect.any(Boolean),
        name: 'Grace Hopper',
        metadata: { theme: 'dark' },
        app: { plan: 'pro' },
      });
      // The scope claims are served by userinfo: an access token came with the ID token.
      for (const claim of ['email', 'name', 'metadata', 'app']) expect(claims[claim]).toBeUndefined();
    });

    it.each([
      ['metadata', { metadata: { theme: 'dark' } }],
      ['app', { app: { plan: 'pro' } }],
    ])("the service's own scope %s: its claim alone", async (scope, expected) => {
      const { userinfo } = await userinfoFor(`openid ${scope}`);
      expect(userinfo).toEqual({ sub: user.id, ...expected });
    });

    it('oidcc-ensure-other-scope-order-succeeds: the same scopes in another order', async () => {
      const { userinfo } = await userinfoFor('email openid');
      expect(userinfo).toMatchObject({ sub: user.id, email: user.email });
    });
  });

  describe('prompt, max_age and id_token_hint', () => {
    it('oidcc-prompt-login: a signed-in user is asked to sign in again, and auth_time is of the new sign-in', async () => {
      const first = await signIn();
      op().advanceSeconds(2);
      const signedInAgain = Math.floor(Date.now() / 1000);
      // max_age=3600 (a sign-in this recent needs none) makes auth_time part of the ID token.
      const second = await signIn(rp, { prompt: 'login', max_age: '3600' }, first.agent);
      expect(second.shown.signIn).toBe(true);
      expect(second.claims.sub).toBe(first.claims.sub);
      expect(second.claims.auth_time).toBeGreaterThanOrEqual(signedInAgain);
    });

    it('oidcc-prompt-none-not-logged-in: login_required back at the client, with the state', async () => {
      const pending = await rp.request({ prompt: 'none' });
      const back = left(await op().agent().navigate(pending.url));
      expect(errorOf(back)).toBe('login_required');
      expect(back.searchParams.get('state')).toBe(pending.checks.expectedState);
      expect(back.searchParams.get('code')).toBeNull();
    });

    it('oidcc-prompt-none-logged-in: a signed-in user gets a code at once', async () => {
      const first = await signIn();
      const second = await signIn(rp, { prompt: 'none' }, first.agent);
      expect(second.shown).toEqual({ signIn: false, consent: false });
      expect(second.claims.sub).toBe(user.id);
    });

    it('oidcc-max-age-1: a sign-in older than max_age asks again, and auth_time says when', async () => {
      const first = await signIn();
      op().advanceSeconds(2);
      const signedInAgain = Math.floor(Date.now() / 1000);
      const second = await signIn(rp, { max_age: '1' }, first.agent);
      expect(second.shown.signIn).toBe(true);
      expect(second.claims.auth_time).toBeGreaterThanOrEqual(signedInAgain);
    });

    it('oidcc-max-age-10000: a recent sign-in is enough, and auth_time is that sign-in', async () => {
      const before = Math.floor(Date.now() / 1000);
      const first = await signIn();
      const after = Math.ceil(Date.now() / 1000);
      op().advanceSeconds(60);
      const second = await signIn(rp, { max_age: '10000' }, first.agent);
      expect(second.shown.signIn).toBe(false);
      expect(second.claims.auth_time).toBeGreaterThanOrEqual(before);
      expect(second.claims.auth_time).toBeLessThanOrEqual(after);
    });

    it("oidcc-id-token-hint: prompt=none with the first ID token as id_token_hint gives the same user's code", async () => {
      const first = await signIn();
      const second = await signIn(rp, { prompt: 'none', id_token_hint: first.tokens.id_token! }, first.agent);
      expect(second.claims.sub).toBe(first.claims.sub);
    });
  });

  describe('codes', () => {
    /** The code's second redemption, as openid-client reports the service's answer. */
    const redeemAgain = (callback: URL, pending: PendingSignIn) =>
      rp.redeem(callback, pending).then(
        () => 'tokens',
        (error: client.ResponseBodyError) => `${error.status} ${error.error}`,
      );

    it('oidcc-codereuse: a code redeemed a second time gets invalid_grant (400)', async () => {
      const { callback, pending } = await signIn();
      expect(await redeemAgain(callback, pending)).toBe('400 invalid_grant');
    });

    it('oidcc-codereuse-30seconds: 30 s later the reuse is refused too, and revokes the tokens the code gave', async () => {
      const { callback, pending, tokens } = await signIn(rp, {
        scope: 'openid email offline_access',
        prompt: 'consent',
      });
      expect(tokens.refresh_token).toEqual(expect.any(String));
      op().advanceSeconds(30);
      expect(await redeemAgain(callback, pending)).toBe('400 invalid_grant');
      // The access token no longer works at userinfo and introspects inactive; the refresh token is refused.
      await expect(client.fetchUserInfo(rp.config, tokens.access_token, user.id)).rejects.toMatchObject({
        status: 401,
      });
      expect((await client.tokenIntrospection(rp.config, tokens.access_token)).active).toBe(false);
      await expect(client.refreshTokenGrant(rp.config, tokens.refresh_token!)).rejects.toMatchObject({
        error: 'invalid_grant',
      });
    });

    it('a code redeemed by another client gets invalid_grant (OIDC Core 3.1.3.2: issued to the authenticated client)', async () => {
      const pending = await rp.request();
      const { callback } = await authorize(op().agent(), pending.url, user);
      await expect(secondRp.redeem(callback, { ...pending, url: pending.url })).rejects.toMatchObject({
        error: 'invalid_grant',
      });
    });
  });

  describe('redirect URIs', () => {
    it.each([
      ['oidcc-ensure-registered-redirect-uri', 'https://attacker.example/callback'],
      ['oidcc-redirect-uri-query-added', `${REDIRECT_URI}?foo=bar`],
      ['a registered URI with a trailing slash (matched byte for byte)', `${REDIRECT_URI}/`],
    ])('%s: refused on an error page of the service, never a redirect', async (_module, redirectUri) => {
      const pending = await rp.request({ redirect_uri: redirectUri });
      const stop = await op().agent().navigate(pending.url);
      expect(stop.kind).toBe('page');
      if (stop.kind !== 'page') return;
      expect(stop.status).toBe(400);
      expect(stop.headers.get('location')).toBeNull();
      expect(stop.html).not.toContain('attacker.example');
    });

    it('an unknown client_id: refused on an error page, never a redirect', async () => {
      const pending = await rp.request();
      const url = new URL(pending.url);
      url.searchParams.set('client_id', 'not-a-client');
      const stop = await op().agent().navigate(url);
      expect(stop.kind).toBe('page');
      if (stop.kind === 'page') expect(stop.status).toBe(400);
    });
  });

  describe('refresh', () => {
    it('oidcc-refresh-token: a refresh gives new tokens for the same user, and is bound to its client', async () => {
      const first = await signIn(rp, { scope: 'openid email offline_access', prompt: 'consent' });
      expect(first.tokens.refresh_token).toEqual(expect.any(String));
      const refreshed = await client.refreshTokenGrant(rp.config, first.tokens.refresh_token!);
      const claims = refreshed.claims();
      if (claims) {
        expect(claims).toMatchObject({ iss: op().issuer, sub: user.id, aud: rp.registered.clientId });
        expect(claims.auth_time).toBe(first.claims.auth_time);
      }
      expect(await client.fetchUserInfo(rp.config, refreshed.access_token, user.id)).toMatchObject({ sub: user.id });
      // Client 2's refresh token presented with client 1's credentials.
      const other = await signIn(secondRp, { scope: 'openid offline_access', prompt: 'consent' });
      await expect(client.refreshTokenGrant(rp.config, other.tokens.refresh_token!)).rejects.toMatchObject({
        error: 'invalid_grant',
      });
      // Rotation: the first refresh token was spent.
      expect(refreshed.refresh_token).not.toBe(first.tokens.refresh_token);
      await expect(client.refreshTokenGrant(rp.config, first.tokens.refresh_token!)).rejects.toMatchObject({
        error: 'invalid_grant',
      });
    });
  });

  describe('RP-initiated logout (the RP-Initiated Logout plan)', () => {
    const logoutUrl = (parameters: Record<string, string>) => client.buildEndSessionUrl(rp.config, parameters);

    it('oidcc-rp-initiated-logout: confirmed, the session ends, the grant with it, and the browser returns with the state', async () => {
      const { agent, tokens } = await signIn(rp, { scope: 'openid email' });
      const question = await agent.navigate(
        logoutUrl({ id_token_hint: tokens.id_token!, post_logout_redirect_uri: 'https://rp.example/', state: 'bye' }),
      );
      const back = left(await agent.submit(question, {}, 'Yes, sign me out'));
      expect(`${back.origin}${back.pathname}`).toBe('https://rp.example/');
      expect(back.searchParams.get('state')).toBe('bye');
      const again = await rp.request({ prompt: 'none' });
      expect(errorOf(left(await agent.navigate(again.url)))).toBe('login_required');
      await expect(client.fetchUserInfo(rp.config, tokens.access_token, user.id)).rejects.toMatchObject({
        status: 401,
      });
    });

    it('oidcc-rp-initiated-logout-bad-post-logout-redirect-uri: an unregistered return address gets an error page, never a redirect', async () => {
      const { agent, tokens } = await signIn();
      const stop = await agent.navigate(
        logoutUrl({ id_token_hint: tokens.id_token!, post_logout_redirect_uri: 'https://attacker.example/' }),
      );
      expect(stop.kind).toBe('page');
      if (stop.kind !== 'page') return;
      expect(stop.status).toBe(400);
      expect(stop.html).not.toContain('attacker.example');
    });
  });

  describe('PKCE', () => {
    it('oidcc-ensure-request-with-valid-pkce-succeeds: S256 with its verifier', async () => {
      const { claims } = await signIn(publicRp);
      expect(claims.sub).toBe(user.id);
    });

    it('a public client without a challenge is refused (OAuth 2.1: PKCE required)', async () => {
      const pending = await publicRp.request();
      const url = new URL(pending.url);
      url.searchParams.delete('code_challenge');
      url.searchParams.delete('code_challenge_method');
      const back = left(await op().agent().navigate(url));
      expect(errorOf(back)).toBe('invalid_request');
    });

    it('the plain method is refused', async () => {
      const pending = await publicRp.request({ code_challenge: 'a'.repeat(43), code_challenge_method: 'plain' });
      const back = left(await op().agent().navigate(pending.url));
      expect(errorOf(back)).toBe('invalid_request');
      expect(back.searchParams.get('code')).toBeNull();
    });

    it('a wrong verifier gets invalid_grant', async () => {
      const pending = await publicRp.request();
      const { callback } = await authorize(op().agent(), pending.url, user);
      const wrong = { ...pending, checks: { ...pending.checks, pkceCodeVerifier: client.randomPKCECodeVerifier() } };
      await expect(publicRp.redeem(callback, wrong)).rejects.toMatchObject({ error: 'invalid_grant' });
    });
  });
});
