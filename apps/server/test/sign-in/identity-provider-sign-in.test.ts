import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { visitAuthorizationUrl } from '../support/fake-provider-server';
import { LOOPBACK_PROVIDERS_ENV, PUBLIC_URL, pkcePair } from '../support/oauth-browser';
import { OidcUpstream } from '../support/oidc-upstream';
import { ROUNDS, rounds, tally } from '../support/race-rounds';
import { BACKENDS, type TestApplication } from '../support/test-application';
import { twoInstances } from '../support/two-instances';

const cookieOf = (response: Response) => response.headers.getSetCookie()[0]?.split(';')[0] ?? '';

/**
 * A browser from the app's "sign in with" to the callback, against a real OpenID Connect provider
 * on loopback: `/authorize` on `first`, the provider, then (what the provider sent back, the
 * browser's cookie) ready to bring to a callback.
 */
async function throughProvider(first: TestApplication, redirectTo = '/signed-in') {
  const { verifier, challenge } = pkcePair();
  const query = new URLSearchParams({ redirect_to: redirectTo, code_challenge: challenge });
  const started = await first.app.request(`/v1/oauth/upstream/authorize?${query}`);
  expect(started.status).toBe(302);
  const params = await visitAuthorizationUrl(started.headers.get('location') ?? '');
  const callback = (application: TestApplication) =>
    application.app.request(`/v1/oauth/upstream/callback?${new URLSearchParams(params)}`, {
      headers: { Cookie: cookieOf(started) },
    });
  return { verifier, callback };
}

const codeIn = (response: Response) =>
  new URL(response.headers.get('location') ?? '', PUBLIC_URL).searchParams.get('code') ?? '';

const redeem = (application: TestApplication, code: string, verifier: string) =>
  application.app.request('/v1/oauth/token', {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ code, code_verifier: verifier }),
  });

describe.each(BACKENDS)('signing in with an OpenID Connect provider on %s, across two instances', (backend) => {
  const upstream = new OidcUpstream();
  const two = twoInstances(backend, LOOPBACK_PROVIDERS_ENV);
  beforeAll(async () => {
    await upstream.start();
    upstream.claims = { sub: `upstream-${backend}`, email: `fed-${backend}@example.com`, email_verified: true };
    await two.a.useCases.identityProviders.create({
      slug: 'upstream',
      kind: 'oidc',
      issuer: upstream.issuer,
      clientId: 'uas-client',
      clientSecret: 'uas-client-secret',
    });
  });
  afterAll(() => upstream.stop());

  it('walks from /authorize through the provider and the callback to a session with amr fed', async () => {
    const { verifier, callback } = await throughProvider(two.a);
    const back = await callback(two.b);
    expect(back.status).toBe(302);
    expect(back.headers.get('location')).toMatch(/^\/signed-in\?code=[\w-]+$/);
    const token = await redeem(two.a, codeIn(back), verifier);
    expect(token.status).toBe(200);
    const { access_token } = ((await token.json()) as { data: { attributes: { access_token: string } } }).data
      .attributes;
    const claims = JSON.parse(Buffer.from(access_token.split('.')[1] ?? '', 'base64url').toString());
    expect(claims).toMatchObject({ email: `fed-${backend}@example.com`, amr: ['fed'] });
    const me = await two.b.app.request('/v1/users/me', { headers: { Authorization: `Bearer ${access_token}` } });
    expect(me.status).toBe(200);
    // A provider that vouches for nothing it was asked: the ID token's nonce is another attempt's.
    upstream.tampering = 'nonce';
    try {
      const tampered = await (await throughProvider(two.a)).callback(two.a);
      expect(tampered.headers.get('location')).toBe('/signed-in?error=identity_provider_error');
    } finally {
      upstream.tampering = null;
    }
  });

  it(`spends a state once and a code once, also at once on two instances: exactly one wins, ${ROUNDS} rounds`, async () => {
    const outcomes = await rounds(async () => {
      const { verifier, callback } = await throughProvider(two.a);
      const callbacks = await Promise.all([callback(two.a), callback(two.b)]);
      const won = callbacks.find((response) => response.status === 302);
      const code = won ? codeIn(won) : '';
      const tokens = await Promise.all([redeem(two.a, code, verifier), redeem(two.b, code, verifier)]);
      return {
        callbacks: callbacks
          .map((response) => response.status)
          .sort()
          .join(' '),
        tokens: tokens
          .map((response) => response.status)
          .sort()
          .join(' '),
      };
    });
    expect(tally(outcomes.map((outcome) => outcome.callbacks))).toEqual({ '302 400': ROUNDS });
    expect(tally(outcomes.map((outcome) => outcome.tokens))).toEqual({ '200 400': ROUNDS });
  });
});
