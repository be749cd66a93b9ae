import * as oidc from 'openid-client';
import { describe, expect, it } from 'vitest';
import { BACKENDS } from '../support/test-application';
import {
  APP_CALLBACK,
  createUser,
  registerClient,
  relyingParty,
  startOpenIdService,
  useOpenIdService,
} from './openid-service';
import { authorize, UserAgent } from './user-agent';

describe.each(BACKENDS)('the authorization code flow with openid-client as the relying party (%s)', (backend) => {
  const service = useOpenIdService(backend);

  it('discovery names the issuer (PUBLIC_URL without its slash), the /oidc/ endpoints, the code flow only and S256', async () => {
    const { client } = await registerClient(service());
    const config = await relyingParty(service(), client.id, null);
    const metadata = config.serverMetadata();
    expect(metadata.issuer).toBe(service().issuer);
    expect(metadata.authorization_endpoint).toBe(`${service().url}oidc/auth`);
    expect(metadata.token_endpoint).toBe(`${service().url}oidc/token`);
    expect(metadata.userinfo_endpoint).toBe(`${service().url}oidc/userinfo`);
    expect(metadata.jwks_uri).toBe(`${service().url}oidc/jwks`);
    expect(metadata.revocation_endpoint).toBe(`${service().url}oidc/revoke`);
    expect(metadata.introspection_endpoint).toBe(`${service().url}oidc/introspect`);
    expect(metadata.end_session_endpoint).toBe(`${service().url}oidc/logout`);
    expect(metadata.response_types_supported).toEqual(['code']);
    expect(metadata.grant_types_supported).toEqual(expect.arrayContaining(['authorization_code', 'refresh_token']));
    expect(metadata.grant_types_supported).not.toContain('implicit');
    expect(metadata.code_challenge_methods_supported).toEqual(['S256']);
    expect(metadata.registration_endpoint).toBeUndefined();
    expect(metadata.id_token_signing_alg_values_supported).toEqual(expect.arrayContaining(['ES256', 'RS256']));
    expect(metadata.id_token_signing_alg_values_supported).not.toContain('none');
    expect(metadata.scopes_supported).toEqual(
      expect.arrayContaining(['openid', 'email', 'profile', 'metadata', 'app', 'offline_access']),
    );
  });

  it('a public client signs a user in with PKCE: a code, tokens, an ID token verified with the JWKS, userinfo by scope', async () => {
    const user = await createUser(service(), `public-${backend}@example.com`);
    const { client } = await registerClient(service(), { type: 'public', scopes: ['openid', 'email', 'profile'] });
    const config = await relyingParty(service(), client.id, null);
    const verifier = oidc.randomPKCECodeVerifier();
    const nonce = oidc.randomNonce();
    const state = oidc.randomState();
    const start = oidc.buildAuthorizationUrl(config, {
      redirect_uri: APP_CALLBACK,
      scope: 'openid email',
      code_challenge: await oidc.calculatePKCECodeChallenge(verifier),
      code_challenge_method: 'S256',
      nonce,
      state,
    });
    const { callback: landing } = await authorize(new UserAgent(service().issuer), start, user);
    const tokens = await oidc.authorizationCodeGrant(config, landing, {
      pkceCodeVerifier: verifier,
      expectedNonce: nonce,
      expectedState: state,
    });
    const claims = tokens.claims()!;
    expect(claims.sub).toBe(user.id);
    expect(claims.iss).toBe(service().issuer);
    expect(claims.aud).toBe(client.id);
    expect(tokens.refresh_token).toBeUndefined();
    const info = await oidc.fetchUserInfo(config, tokens.access_token, user.id);
    expect(info).toEqual({ sub: user.id, email: user.email, email_verified: true });
  });

  it('an authorization that cannot go back to its application is refused on a page of the service, never redirected', async () => {
    const { client } = await registerClient(service(), { type: 'public' });
    const refusals = [
      { client_id: 'no-such-client', redirect_uri: APP_CALLBACK },
      { client_id: client.id, redirect_uri: 'https://evil.example/callback' },
      { client_id: client.id, redirect_uri: `${APP_CALLBACK}/` },
    ];
    for (const parameters of refusals) {
      const query = new URLSearchParams({ ...parameters, response_type: 'code', scope: 'openid' });
      const response = await fetch(`${service().url}oidc/auth?${query}`, { redirect: 'manual' });
      expect(response.status).toBe(400);
      expect(response.headers.get('location')).toBeNull();
      const page = await response.text();
      expect(page).toMatch(/invalid_client|invalid_redirect_uri/);
      expect(page).not.toMatch(/ at |stack|node_modules/);
    }
  });

  it('a public client without PKCE, or asking for an implicit flow, gets the error at its redirect URI', async () => {
    const { client } = await registerClient(service(), { type: 'public' });
    const asks: Record<string, string>[] = [
      { response_type: 'code' },
      { response_type: 'id_token', nonce: 'n' },
      { response_type: 'code', code_challenge: 'x'.repeat(43), code_challenge_method: 'plain' },
    ];
    for (const ask of asks) {
      const query = new URLSearchParams({
        client_id: client.id,
        redirect_uri: APP_CALLBACK,
        scope: 'openid',
        state: 's',
        ...ask,
      });
      const response = await fetch(`${service().url}oidc/auth?${query}`, { redirect: 'manual' });
      const location = new URL(response.headers.get('location')!);
      expect(`${location.origin}${location.pathname}`).toBe(APP_CALLBACK);
      // An implicit request's error comes back in the fragment, as its response mode has it.
      const error = location.searchParams.get('error') ?? new URLSearchParams(location.hash.slice(1)).get('error');
      expect(error).toMatch(/invalid_request|unsupported_response_type/);
    }
  });

  it('with its database out of reach the engine answers 503 with when to try again, never a 500 or a cause', async () => {
    const outage = await startOpenIdService(backend);
    try {
      await outage.t.closeDatabase();
      const response = await fetch(`${outage.url}oidc/token`, {
        method: 'POST',
        headers: {
          'content-type': 'application/x-www-form-urlencoded',
          // Authenticating the client is the first read of the database.
          authorization: `Basic ${Buffer.from('some-client:some-secret').toString('base64')}`,
        },
        body: new URLSearchParams({
          grant_type: 'authorization_code',
          code: 'c',
          redirect_uri: APP_CALLBACK,
        }).toString(),
      });
      expect(response.status).toBe(503);
      expect(response.headers.get('retry-after')).toBe('5');
      expect(await response.json()).toEqual({
        error: 'temporarily_unavailable',
        error_description: 'The service cannot answer now; try again.',
      });
    } finally {
      await outage.close().catch(() => {});
    }
  });
});
