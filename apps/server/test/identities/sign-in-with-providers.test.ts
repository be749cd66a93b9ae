import { SECOND_FACTOR_RULES } from '@uas/domain';
import { generateSync } from 'otplib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AppleFake } from '../support/apple-fake';
import { GithubFake } from '../support/github-fake';
import { accessTokenOf, createProvider, errorCodeOf, me, redeem, signInWith } from '../support/identity-trips';
import { APP_ORIGIN, LOOPBACK_PROVIDERS_ENV, OAuthBrowser, pkcePair } from '../support/oauth-browser';
import { OidcUpstream } from '../support/oidc-upstream';
import { BACKENDS } from '../support/test-application';
import { twoInstances } from '../support/two-instances';
import { claimsOf } from '../support/user-client';
import { USER_PASSWORD } from '../support/wire';

const SECRETS = {
  oidc: 'oidc-client-secret-e2e',
  github: 'github-client-secret-e2e',
  apple: 'apple-client-secret-e2e',
};

/**
 * "Sign in with" as a user lives it, against the real service (two instances over one database)
 * and real providers on loopback: an OpenID Connect provider, a GitHub-shaped and an
 * Apple-shaped one, each created by an admin through the API. The browser goes from the app to
 * the service, the provider and back; the app redeems the code with its PKCE verifier.
 */
describe.each(BACKENDS)('signing in with other identity providers on %s', (backend) => {
  const oidc = new OidcUpstream();
  const github = new GithubFake('gh-client', SECRETS.github);
  const apple = new AppleFake('apple-client', SECRETS.apple);
  const two = twoInstances(backend, LOOPBACK_PROVIDERS_ENV);
  beforeAll(async () => {
    await Promise.all([oidc.start(), github.start(), apple.start()]);
    const { clientA } = two;
    await createProvider(clientA, {
      slug: 'corp',
      kind: 'oidc',
      issuer: oidc.issuer,
      client_id: 'uas-client',
      client_secret: SECRETS.oidc,
      auto_link: true,
    });
    await createProvider(clientA, {
      slug: 'github',
      kind: 'github',
      issuer: github.issuer,
      client_id: 'gh-client',
      client_secret: SECRETS.github,
    });
    await createProvider(clientA, {
      slug: 'apple',
      kind: 'apple',
      issuer: apple.issuer,
      client_id: 'apple-client',
      client_secret: SECRETS.apple,
    });
  });
  afterAll(() => Promise.all([oidc.stop(), github.stop(), apple.stop()]));

  it('signs a new user up through the OpenID Connect provider, and the same user in again on the other instance', async () => {
    const { a, b, clientA, clientB } = two;
    const email = `corp-new-${backend}@example.com`;
    oidc.claims = { sub: `corp-new-${backend}`, email, email_verified: true, name: 'Grace Hopper' };
    const first = await signInWith(a, 'corp');
    expect(first.landed?.origin).toBe(APP_ORIGIN);
    expect(first.landed?.pathname).toBe('/signed-in');
    expect(first.browser.cookies.size, 'the uas_oauth cookie is cleared at the callback').toBe(0);
    const token = await accessTokenOf(await redeem(clientB, first.code, first.verifier));
    expect(claimsOf(token)).toMatchObject({ email, amr: ['fed'] });
    const user = await me(clientA, token);
    expect(user.attributes).toMatchObject({ email, name: 'Grace Hopper', email_verified: expect.any(String) });

    const again = await signInWith(b, 'corp');
    const second = await accessTokenOf(await redeem(clientA, again.code, again.verifier));
    expect((await me(clientB, second)).id).toBe(user.id);
    const identities = await (await clientA.get('/v1/users/me/identities', second)).json();
    expect(identities.meta.total).toBe(1);
    expect(identities.data[0].attributes).toMatchObject({
      provider: 'corp',
      provider_kind: 'oidc',
      subject: `corp-new-${backend}`,
      email,
      email_verified: true,
      last_sign_in: expect.any(String),
    });
  });

  it('signs in through the GitHub-shaped provider: its numeric id the subject, its verified primary email the address', async () => {
    const { a, clientA } = two;
    github.user = { id: backend === 'sqlite' ? 1001 : 1002, login: 'mona', name: 'Mona' };
    github.emails = [
      { email: `mona-old-${backend}@example.com`, primary: false, verified: true },
      { email: `Mona-${backend}@Example.com`, primary: true, verified: true },
    ];
    const trip = await signInWith(a, 'github');
    const token = await accessTokenOf(await redeem(clientA, trip.code, trip.verifier));
    expect((await me(clientA, token)).attributes).toMatchObject({
      email: `mona-${backend}@example.com`,
      email_verified: expect.any(String),
    });
    const [identity] = (await (await clientA.get('/v1/users/me/identities', token)).json()).data;
    expect(identity.attributes).toMatchObject({
      provider: 'github',
      provider_kind: 'github',
      subject: String(github.user.id),
    });
    expect(github.requests).toContain('/api/v3/user/emails');
  });

  it("signs in through the Apple-shaped provider's form_post, its string email_verified read as vouched, its name kept", async () => {
    const { b, clientB } = two;
    apple.sub = `apple-${backend}`;
    apple.email = `relay-${backend}@privaterelay.example.com`;
    const trip = await signInWith(b, 'apple');
    expect(apple.requests).toContain('/auth/authorize');
    const token = await accessTokenOf(await redeem(clientB, trip.code, trip.verifier));
    expect((await me(clientB, token)).attributes).toMatchObject({
      email: apple.email,
      name: 'Ada Lovelace',
      email_verified: expect.any(String),
    });
  });

  it('links a first sign-in to the user holding the verified address, and asks a user with TOTP for the second step', async () => {
    const { a, clientA, clientB } = two;
    const email = `totp-${backend}@example.com`;
    const created = await clientA.createUser({ email, email_verified: true });
    const session = await clientA.userSession(email, USER_PASSWORD);
    const who = await a.useCases.userAuth.authenticate(session.accessToken);
    const codeNow = (secret: string) => generateSync({ secret, epoch: Math.floor(a.clock.now().getTime() / 1000) });
    const { factor, totp } = await a.useCases.factors.enrol(who, 'totp');
    await a.useCases.factors.verify(who, factor.id, { code: codeNow(totp!.secret) });
    // The verify used up this window's code: both instances' clocks move on to the next.
    a.clock.advance(SECOND_FACTOR_RULES.totp.periodSeconds);
    two.b.clock.advance(SECOND_FACTOR_RULES.totp.periodSeconds);

    oidc.claims = { sub: `corp-totp-${backend}`, email, email_verified: true };
    const trip = await signInWith(a, 'corp');
    const answer = await redeem(clientB, trip.code, trip.verifier);
    expect(answer.status, `${trip.error} ${await answer.clone().text()}`).toBe(200);
    const challenge = (await answer.json()).data;
    expect(challenge.type).toBe('mfa_challenges');
    const done = await clientA.send('POST', '/v1/login/mfa', {
      challenge: challenge.id,
      code: codeNow(totp!.secret),
    });
    const token = await accessTokenOf(done);
    expect(claimsOf(token)).toMatchObject({ sub: created.id, amr: ['fed', 'otp', 'mfa'], aal: 'aal2' });
  });

  it('links GitHub from a signed-in account, lists it, unlinks it; an account with only that way in keeps it', async () => {
    const { a, b, clientA, clientB } = two;
    const email = `linker-${backend}@example.com`;
    const user = await clientA.createUser({ email });
    const { accessToken } = await clientA.userSession(email, USER_PASSWORD);
    github.user = { id: backend === 'sqlite' ? 2001 : 2002, login: 'linker' };
    github.emails = [{ email: `someone-else-${backend}@example.com`, primary: true, verified: true }];

    const { verifier, challenge } = pkcePair();
    const started = await clientA.send(
      'POST',
      '/v1/users/me/identities',
      { provider: 'github', redirect_to: `${APP_ORIGIN}/linked`, code_challenge: challenge },
      accessToken,
    );
    expect(started.status).toBe(201);
    const { authorize_url } = (await started.json()).data.attributes;
    const { url } = await new OAuthBrowser(b).navigate(authorize_url);
    expect(url?.pathname).toBe('/linked');
    const completed = await clientB.send(
      'POST',
      '/v1/users/me/identities/complete',
      { code: url?.searchParams.get('code'), code_verifier: verifier },
      accessToken,
    );
    expect(completed.status, await completed.clone().text()).toBe(201);
    const identity = (await completed.json()).data;
    expect(identity.attributes).toMatchObject({ provider: 'github', subject: String(github.user.id) });

    // Now GitHub signs this user in, though its address is another.
    const trip = await signInWith(a, 'github');
    expect((await me(clientA, await accessTokenOf(await redeem(clientA, trip.code, trip.verifier)))).id).toBe(user.id);

    const listed = await (await clientB.get('/v1/users/me/identities', accessToken)).json();
    expect(listed.data.map((each: { id: string }) => each.id)).toEqual([identity.id]);
    expect((await clientA.delete(`/v1/users/me/identities/${identity.id}`, accessToken)).status).toBe(204);
    expect((await (await clientA.get('/v1/users/me/identities', accessToken)).json()).meta.total).toBe(0);

    // A user made by a sign-in has no password: its one identity is its last way in.
    oidc.claims = { sub: `corp-only-${backend}`, email: `corp-only-${backend}@example.com`, email_verified: true };
    const only = await signInWith(a, 'corp');
    const onlyToken = await accessTokenOf(await redeem(clientA, only.code, only.verifier));
    const [onlyIdentity] = (await (await clientA.get('/v1/users/me/identities', onlyToken)).json()).data;
    const refused = await clientB.delete(`/v1/users/me/identities/${onlyIdentity.id}`, onlyToken);
    expect([refused.status, await errorCodeOf(refused)]).toEqual([409, 'last_sign_in_method']);
  });

  it("lets an admin see a user's identities and unlink one, and audits the link, the sign-in and the unlink", async () => {
    const { a, clientA, clientB } = two;
    const email = `audited-${backend}@example.com`;
    oidc.claims = { sub: `corp-audited-${backend}`, email, email_verified: true };
    const first = await signInWith(a, 'corp');
    const token = await accessTokenOf(await redeem(clientA, first.code, first.verifier));
    const user = await me(clientA, token);
    // A password too, so the identity is not the last way in.
    const patched = await clientA.send(
      'PATCH',
      `/v1/admin/users/${user.id}`,
      { data: { type: 'users', id: user.id, attributes: { password: USER_PASSWORD } } },
      await clientA.adminToken(),
    );
    expect(patched.status, await patched.clone().text()).toBe(200);
    const again = await signInWith(a, 'corp');
    await accessTokenOf(await redeem(clientA, again.code, again.verifier));

    const admin = await clientB.adminToken();
    const listed = await (await clientB.get(`/v1/admin/users/${user.id}/identities`, admin)).json();
    expect(listed.data.map((each: { attributes: { subject: string } }) => each.attributes.subject)).toEqual([
      `corp-audited-${backend}`,
    ]);
    const unlinked = await clientB.delete(`/v1/admin/users/${user.id}/identities/${listed.data[0].id}`, admin);
    expect(unlinked.status).toBe(204);
    expect((await (await clientA.get(`/v1/admin/users/${user.id}/identities`, admin)).json()).meta.total).toBe(0);

    const events = await (await clientA.get(`/v1/admin/audit-events?filter[target]=${user.id}`, admin)).json();
    const actions = events.data.map((event: { attributes: { action: string } }) => event.attributes.action);
    expect(actions).toEqual(
      expect.arrayContaining(['user.signed_up', 'user.identity_signed_in', 'user.identity_unlinked']),
    );
    // Signed in again: no identity now, so it links again by the address both sides vouch for (auto_link).
    const after = await signInWith(a, 'corp');
    expect((await me(clientA, await accessTokenOf(await redeem(clientA, after.code, after.verifier)))).id).toBe(
      user.id,
    );
  });

  it('never answers or logs a client secret, a provider code or a one-time code', () => {
    const { a, b, clientA, clientB } = two;
    clientA.expectCleanLogs();
    clientB.expectCleanLogs();
    const logs = [...a.logs, ...b.logs].join('\n');
    for (const secret of Object.values(SECRETS)) expect(logs).not.toContain(secret);
  });
});
