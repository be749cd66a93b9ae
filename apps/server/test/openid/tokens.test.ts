import type { AuditAction } from '@uas/domain';
import * as jose from 'jose';
import * as oidc from 'openid-client';
import { generateSync } from 'otplib';
import { AdminClient } from '../support/admin-client';
import { describe, expect, it, vi } from 'vitest';
import { loadConfig } from '../../src/config';
import { storedData } from '../support/stored-data';
import { BACKENDS } from '../support/test-application';
import {
  APP_CALLBACK,
  APP_SIGNED_OUT,
  createUser,
  registerClient,
  relyingParty,
  useOpenIdService,
} from './openid-service';
import { authorize, left, UserAgent } from './user-agent';

/** The error code an openid-client call was refused with. */
async function refusal(call: Promise<unknown>): Promise<string> {
  try {
    await call;
  } catch (error) {
    // A token endpoint's error body, or a resource's WWW-Authenticate challenge.
    const { error: code, cause } = error as { error?: string; cause?: { parameters?: { error?: string } }[] };
    return code ?? cause?.[0]?.parameters?.error ?? String(error);
  }
  throw new Error('The call succeeded.');
}

describe.each(BACKENDS)('tokens of the OpenID provider (%s)', (backend) => {
  const service = useOpenIdService(backend);

  async function events(action: AuditAction) {
    return (await service().t.useCases.audit.list({ action, page: 1, size: 100 })).events;
  }

  /** A confidential client and a user who signed in with `scope`: the RP's config, the callback URL, the user. */
  async function authorized(scope: string, label: string) {
    const user = await createUser(service(), `${label}-${backend}@example.com`);
    const { client, secret } = await registerClient(service());
    const config = await relyingParty(service(), client.id, secret);
    const nonce = oidc.randomNonce();
    const parameters: Record<string, string> = { redirect_uri: APP_CALLBACK, scope, nonce };
    // OpenID Connect grants offline_access only with prompt=consent.
    if (scope.includes('offline_access')) parameters.prompt = 'consent';
    const start = oidc.buildAuthorizationUrl(config, parameters);
    const agent = new UserAgent(service().issuer);
    const { callback: landing } = await authorize(agent, start, user);
    return { user, client, secret, config, landing, nonce, agent };
  }

  it('a confidential client authenticates with client_secret_basic; the ID token verifies with the published JWKS (ES256)', async () => {
    const { user, client, config, landing, nonce } = await authorized('openid profile metadata app', 'basic');
    const tokens = await oidc.authorizationCodeGrant(config, landing, { expectedNonce: nonce });
    const header = jose.decodeProtectedHeader(tokens.id_token!);
    expect(header.alg).toBe('ES256');
    const jwks = jose.createRemoteJWKSet(new URL(`${service().url}oidc/jwks`));
    const { payload } = await jose.jwtVerify(tokens.id_token!, jwks, { issuer: service().issuer, audience: client.id });
    expect(payload.sub).toBe(user.id);
    // conformIdTokenClaims: the scopes' claims are for userinfo, the access token being issued for it.
    expect(payload.name).toBeUndefined();
    const info = await oidc.fetchUserInfo(config, tokens.access_token, user.id);
    expect(info).toEqual({ sub: user.id, name: 'Ada Lovelace', metadata: { plan: 'pro' }, app: { roles: ['editor'] } });
    const created = (await events('oauth_grant.created')).find((event) => event.target?.id === user.id);
    // The scopes as granted, one space between each, none around.
    expect(created?.changes?.scopes?.after).toBe('openid profile metadata app');
  });

  it('refresh tokens rotate: the new one works, the old one is refused within the grace window without revoking', async () => {
    const { config, landing, nonce } = await authorized('openid offline_access', 'rotate');
    const first = await oidc.authorizationCodeGrant(config, landing, { expectedNonce: nonce });
    expect(first.refresh_token).toBeDefined();
    const second = await oidc.refreshTokenGrant(config, first.refresh_token!);
    expect(second.refresh_token).not.toBe(first.refresh_token);
    expect(await refusal(oidc.refreshTokenGrant(config, first.refresh_token!))).toBe('invalid_grant');
    // Within the grace window the family lives on: the rotated token still refreshes.
    const third = await oidc.refreshTokenGrant(config, second.refresh_token!);
    expect(third.access_token).toBeDefined();
  });

  it('no code, token, session id or client secret is ever in the database, an audit event or a log line', async () => {
    const { config, landing, nonce, secret, agent } = await authorized('openid email offline_access', 'at-rest');
    const code = landing.searchParams.get('code')!;
    const first = await oidc.authorizationCodeGrant(config, landing, { expectedNonce: nonce });
    const second = await oidc.refreshTokenGrant(config, first.refresh_token!);
    const bearers = [code, first.access_token, first.refresh_token!, second.access_token, second.refresh_token!];
    // The engine's session cookie holds its session id, a bearer secret like the tokens. (The
    // interaction's id is in its pages' paths, and the interaction is bound to its browser.)
    const session = agent.cookie('uas_oidc_session');
    expect(session).toBeDefined();
    const secrets = [...bearers, secret!, session!];
    const stored = await storedData(loadConfig(service().t.env));
    expect(stored).toContain(first.claims()!.sub); // the search reads the stored records
    const logged = service().t.logs.join('\n');
    expect(secrets.filter((each) => stored.includes(each))).toEqual([]);
    expect(secrets.filter((each) => logged.includes(each))).toEqual([]);
  });

  it('a rotated client secret counts at once: the old one, used just before, is refused; the new one redeems', async () => {
    const { client, config, landing, nonce } = await authorized('openid offline_access', 'rotated-secret');
    const first = await oidc.authorizationCodeGrant(config, landing, { expectedNonce: nonce });
    const { secret } = await service().t.useCases.oauthClients.rotateSecret(client.id);
    expect(await refusal(oidc.refreshTokenGrant(config, first.refresh_token!))).toBe('invalid_client');
    const rotated = await relyingParty(service(), client.id, secret);
    expect((await oidc.refreshTokenGrant(rotated, first.refresh_token!)).access_token).toBeDefined();
  });

  it('a refresh token reused after the grace window revokes the grant: every token of it stops working', async () => {
    const { config, landing, nonce } = await authorized('openid offline_access', 'reuse');
    const first = await oidc.authorizationCodeGrant(config, landing, { expectedNonce: nonce });
    const second = await oidc.refreshTokenGrant(config, first.refresh_token!);
    service().t.clock.advance(11);
    expect(await refusal(oidc.refreshTokenGrant(config, first.refresh_token!))).toBe('invalid_grant');
    expect(await refusal(oidc.refreshTokenGrant(config, second.refresh_token!))).toBe('invalid_grant');
    const revoked = await events('oauth_grant.revoked');
    expect(revoked.some((event) => event.changes?.reason?.after === 'refresh_token_reused')).toBe(true);
  });

  it('a code redeemed twice gives tokens once, and the replay revokes the tokens of the first redemption', async () => {
    const { user, config, landing, nonce } = await authorized('openid offline_access', 'replay');
    const tokens = await oidc.authorizationCodeGrant(config, landing, { expectedNonce: nonce });
    expect(await refusal(oidc.authorizationCodeGrant(config, landing, { expectedNonce: nonce }))).toBe('invalid_grant');
    expect(await refusal(oidc.fetchUserInfo(config, tokens.access_token, user.id))).toBe('invalid_token');
    expect(await refusal(oidc.refreshTokenGrant(config, tokens.refresh_token!))).toBe('invalid_grant');
    const revoked = await events('oauth_grant.revoked');
    expect(
      revoked.some((event) => event.target?.id === user.id && event.changes?.reason?.after === 'code_reused'),
    ).toBe(true);
    const refused = await events('oauth_token.refused');
    expect(refused.length).toBeGreaterThan(0);
    for (const event of refused) expect(JSON.stringify(event)).not.toContain(landing.searchParams.get('code')!);
  });

  it('a code redeemed twice at the same instant gives tokens exactly once', async () => {
    const { config, landing, nonce } = await authorized('openid', 'race');
    const outcomes = await Promise.allSettled([
      oidc.authorizationCodeGrant(config, landing, { expectedNonce: nonce }),
      oidc.authorizationCodeGrant(config, landing, { expectedNonce: nonce }),
    ]);
    expect(outcomes.filter(({ status }) => status === 'fulfilled')).toHaveLength(1);
  });

  it('revocation ends a refresh token and its grant; introspection tells only the confidential client the token was issued to', async () => {
    const { config, landing, nonce } = await authorized('openid offline_access', 'revoke');
    const tokens = await oidc.authorizationCodeGrant(config, landing, { expectedNonce: nonce });
    expect((await oidc.tokenIntrospection(config, tokens.access_token)).active).toBe(true);
    // A public client cannot prove who asks: it learns nothing of a live token.
    const { client } = await registerClient(service(), { type: 'public' });
    const publicConfig = await relyingParty(service(), client.id, null);
    expect((await oidc.tokenIntrospection(publicConfig, tokens.access_token)).active).toBe(false);
    // Another confidential client neither reads nor revokes this client's tokens.
    const other = await registerClient(service(), { name: 'Another App' });
    const otherConfig = await relyingParty(service(), other.client.id, other.secret);
    expect(await oidc.tokenIntrospection(otherConfig, tokens.access_token)).toEqual({ active: false });
    expect(await oidc.tokenIntrospection(otherConfig, tokens.refresh_token!)).toEqual({ active: false });
    await oidc.tokenRevocation(otherConfig, tokens.refresh_token!);
    await oidc.tokenRevocation(otherConfig, tokens.access_token);
    expect((await oidc.tokenIntrospection(config, tokens.access_token)).active).toBe(true);
    expect((await oidc.tokenIntrospection(config, tokens.refresh_token!)).active).toBe(true);

    await oidc.tokenRevocation(config, tokens.refresh_token!);
    expect((await oidc.tokenIntrospection(config, tokens.access_token)).active).toBe(false);
    expect(await refusal(oidc.refreshTokenGrant(config, tokens.refresh_token!))).toBe('invalid_grant');
    const revoked = await events('oauth_grant.revoked');
    expect(revoked.some((event) => event.changes?.reason?.after === 'token_revoked')).toBe(true);
  });

  it('RP-initiated logout signs the browser out and returns to a registered post-logout URI', async () => {
    const user = await createUser(service(), `logout-${backend}@example.com`);
    const { client, secret } = await registerClient(service());
    const config = await relyingParty(service(), client.id, secret);
    const browser = new UserAgent(service().issuer);
    const nonce = oidc.randomNonce();
    const { callback: landing } = await authorize(
      browser,
      oidc.buildAuthorizationUrl(config, { redirect_uri: APP_CALLBACK, scope: 'openid', nonce }),
      user,
    );
    const tokens = await oidc.authorizationCodeGrant(config, landing, { expectedNonce: nonce });
    const logout = oidc.buildEndSessionUrl(config, {
      id_token_hint: tokens.id_token!,
      post_logout_redirect_uri: APP_SIGNED_OUT,
      state: 'bye',
    });
    const confirm = await browser.navigate(logout);
    const ended = left(await browser.submit(confirm, {}, 'Yes, sign me out'));
    expect(`${ended.origin}${ended.pathname}`).toBe(APP_SIGNED_OUT);
    expect(ended.searchParams.get('state')).toBe('bye');
    // Signed out: the next authorization asks for the password again.
    const again = await browser.navigate(
      oidc.buildAuthorizationUrl(config, { redirect_uri: APP_CALLBACK, scope: 'openid', nonce }),
    );
    expect(again).toMatchObject({ kind: 'page', html: expect.stringMatching(/name="password"/) });
  });

  it('a deactivated user gets no tokens: the code and the refresh token are refused', async () => {
    const { user, config, landing, nonce } = await authorized('openid offline_access', 'deactivated');
    const tokens = await oidc.authorizationCodeGrant(config, landing, { expectedNonce: nonce });
    await service().t.useCases.users.update(user.id, { active: 0 });
    expect(await refusal(oidc.refreshTokenGrant(config, tokens.refresh_token!))).toBe('invalid_grant');
  });

  it.each([
    ['deactivated', (id: string) => service().t.useCases.users.update(id, { active: 0 })],
    ['banned', (id: string) => service().t.useCases.users.ban(id, { reason: 'spam', until: null })],
  ])(
    'a browser whose user was %s is asked to sign in again (login_required with prompt=none), never an error',
    async (label, end) => {
      const user = await createUser(service(), `ended-${label}-${backend}@example.com`);
      const { client, secret } = await registerClient(service());
      const config = await relyingParty(service(), client.id, secret);
      const browser = new UserAgent(service().issuer);
      const request = (extra: Record<string, string> = {}) =>
        oidc.buildAuthorizationUrl(config, { redirect_uri: APP_CALLBACK, scope: 'openid email', state: 's', ...extra });
      expect((await authorize(browser, request(), user)).callback.searchParams.get('code')).toBeTruthy();
      await end(user.id);

      const silent = left(await browser.navigate(request({ prompt: 'none' })));
      expect(silent.searchParams.get('error')).toBe('login_required');
      expect(silent.searchParams.get('state')).toBe('s');
      const again = await browser.navigate(request());
      expect(again).toMatchObject({ kind: 'page', status: 200, html: expect.stringMatching(/name="password"/) });
    },
  );

  it("the engine's requests are in the request log as the service's own are, without a code, token or query", async () => {
    const from = service().t.logs.length;
    const { user, config, landing, nonce } = await authorized('openid email offline_access', 'logged');
    const tokens = await oidc.authorizationCodeGrant(config, landing, { expectedNonce: nonce });
    await oidc.fetchUserInfo(config, tokens.access_token, user.id);
    await oidc.refreshTokenGrant(config, tokens.refresh_token!);
    const written = () => service().t.logs.slice(from);
    const engineLines = () =>
      written()
        .map((line) => JSON.parse(line))
        .filter((line) => line.msg === 'request' && line.path.startsWith('/oidc/'));
    // A line is written once its answer is done, which the client may see a moment before.
    await vi.waitFor(() => expect(engineLines().filter((line) => line.path === '/oidc/token')).toHaveLength(2));
    const engine = engineLines();
    for (const [method, path, status] of [
      ['GET', '/oidc/auth', 303],
      ['POST', '/oidc/token', 200],
      ['GET', '/oidc/userinfo', 200],
    ] as const) {
      expect(engine).toContainEqual(
        expect.objectContaining({ level: 'info', method, path, status, durationMs: expect.any(Number) }),
      );
    }
    for (const line of engine) {
      expect(line.requestId).toEqual(expect.any(String));
      expect(line.clientAddress).toBe('127.0.0.1');
    }
    const text = written().join('\n');
    for (const secret of [landing.searchParams.get('code')!, tokens.access_token, tokens.refresh_token!, nonce])
      expect(text).not.toContain(secret);
  });

  it('refusals past the audit cap leave one log line per address and window, and no further events', async () => {
    const { client, secret } = await registerClient(service());
    // A window of the refusal counter of its own, whatever the tests before refused.
    service().t.clock.advance(3600);
    const cap = 'token refusals past the audit cap';
    const audited = async () => (await events('oauth_token.refused')).filter((event) => event.target?.id === client.id);
    const refuse = () =>
      fetch(`${service().url}oidc/token`, {
        method: 'POST',
        headers: {
          authorization: `Basic ${btoa(`${client.id}:${secret}`)}`,
          'content-type': 'application/x-www-form-urlencoded',
        },
        body: new URLSearchParams({ grant_type: 'refresh_token', refresh_token: 'not-a-token' }),
      });
    const linesBefore = service().t.logs.filter((line) => line.includes(cap)).length;
    for (let attempt = 0; attempt < 14; attempt++) expect((await refuse()).status).toBe(400);
    const warnings = () =>
      service()
        .t.logs.filter((line) => line.includes(cap))
        .slice(linesBefore);
    // The audit is written beside the answer, not before it.
    await vi.waitFor(async () => expect((await audited()).length).toBe(10));
    await vi.waitFor(() => expect(warnings()).toHaveLength(1));
    expect(await audited()).toHaveLength(10);
    expect(JSON.parse(warnings()[0]!)).toMatchObject({ level: 'warn', clientAddress: '127.0.0.1', audited: 10 });
    expect(warnings()[0]).not.toContain('not-a-token');
  });

  it('a sign-in with a second factor says so in the ID token: amr pwd, otp, mfa and the multi-factor acr', async () => {
    const user = await createUser(service(), `mfa-${backend}@example.com`);
    const session = await new AdminClient(service().t).userSession(user.email, user.password);
    const who = await service().t.useCases.userAuth.authenticate(session.accessToken);
    const { factor, totp } = await service().t.useCases.factors.enrol(who, 'totp');
    const code = () =>
      generateSync({ secret: totp!.secret, epoch: Math.floor(service().t.clock.now().getTime() / 1000) });
    await service().t.useCases.factors.verify(who, factor.id, { code: code() });
    // The verification used the current step's code.
    service().t.clock.advance(30);
    const { client, secret } = await registerClient(service(), { firstParty: true });
    const config = await relyingParty(service(), client.id, secret);
    const nonce = oidc.randomNonce();
    const browser = new UserAgent(service().issuer);
    const signInPage = await browser.navigate(
      oidc.buildAuthorizationUrl(config, { redirect_uri: APP_CALLBACK, scope: 'openid', nonce }),
    );
    const codePage = await browser.submit(signInPage, { email: user.email, password: user.password });
    expect(codePage).toMatchObject({ kind: 'page', html: expect.stringMatching(/name="code"/) });
    const landing = left(await browser.submit(codePage, { code: code() }));
    const tokens = await oidc.authorizationCodeGrant(config, landing, { expectedNonce: nonce });
    expect(tokens.claims()).toMatchObject({
      amr: ['pwd', 'otp', 'mfa'],
      acr: 'urn:user-account-service:acr:mfa',
      auth_time: expect.any(Number),
    });
  });
});
