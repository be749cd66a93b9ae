import * as oidc from 'openid-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BACKENDS } from '../support/test-application';
import {
  APP_CALLBACK,
  createUser,
  registerClient,
  relyingParty,
  startOpenIdService,
  type OpenIdService,
} from './openid-service';
import { authorize, UserAgent } from './user-agent';

describe.each(BACKENDS)('the OpenID provider on two instances over one database (%s)', (backend) => {
  let a: OpenIdService;
  let b: OpenIdService;
  beforeAll(async () => {
    a = await startOpenIdService(backend);
    b = await startOpenIdService(backend, {}, a);
  }, 60_000);
  afterAll(async () => {
    await b?.close();
    await a?.close();
  });

  it('an authorization begun on one instance finishes on the other, and the tokens work on both', async () => {
    const user = await createUser(a, `two-${backend}@example.com`);
    const { client, secret } = await registerClient(a);
    const atA = await relyingParty(a, client.id, secret);
    const atB = await relyingParty(a, client.id, secret, b);
    const nonce = oidc.randomNonce();
    const browser = new UserAgent(a.issuer);
    const start = oidc.buildAuthorizationUrl(atA, {
      redirect_uri: APP_CALLBACK,
      scope: 'openid email offline_access',
      prompt: 'consent',
      nonce,
    });
    // The authorization starts on A; the sign-in and consent pages are served by B.
    const first = await browser.navigate(start);
    expect(first).toMatchObject({ kind: 'page', status: 200 });
    const { callback: landing } = await authorize(browser.switchTo(new URL(b.address).origin), first.url, user);
    const tokens = await oidc.authorizationCodeGrant(atB, landing, { expectedNonce: nonce });
    expect(tokens.claims()!.sub).toBe(user.id);
    expect((await oidc.fetchUserInfo(atA, tokens.access_token, user.id)).email).toBe(user.email);
    const refreshed = await oidc.refreshTokenGrant(atA, tokens.refresh_token!);
    expect((await oidc.fetchUserInfo(atB, refreshed.access_token, user.id)).sub).toBe(user.id);
  });

  it('one code redeemed at both instances at the same instant gives tokens exactly once', async () => {
    const user = await createUser(a, `race-${backend}@example.com`);
    const { client, secret } = await registerClient(a);
    const atA = await relyingParty(a, client.id, secret);
    const atB = await relyingParty(a, client.id, secret, b);
    const nonce = oidc.randomNonce();
    const { callback: landing } = await authorize(
      new UserAgent(a.issuer),
      oidc.buildAuthorizationUrl(atA, { redirect_uri: APP_CALLBACK, scope: 'openid', nonce }),
      user,
    );
    const outcomes = await Promise.allSettled([
      oidc.authorizationCodeGrant(atA, landing, { expectedNonce: nonce }),
      oidc.authorizationCodeGrant(atB, landing, { expectedNonce: nonce }),
    ]);
    expect(outcomes.filter(({ status }) => status === 'fulfilled')).toHaveLength(1);
  });
});
