import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AdminClient } from '../support/admin-client';
import { visitAuthorizationUrl } from '../support/fake-provider-server';
import { GithubFake } from '../support/github-fake';
import {
  accessTokenOf,
  createProvider,
  errorCodeOf,
  me,
  redeem as redeemCode,
  signInWith,
} from '../support/identity-trips';
import { APP_ORIGIN, LOOPBACK_PROVIDERS_ENV, OAuthBrowser, pkcePair } from '../support/oauth-browser';
import { type IdTokenTampering, OidcUpstream } from '../support/oidc-upstream';
import { BACKENDS, type TestApplication } from '../support/test-application';
import { twoInstances } from '../support/two-instances';
import { mailedToken } from '../support/outbox';
import { USER_PASSWORD } from '../support/wire';

const OIDC_SECRET = 'attacks-oidc-client-secret';
const GITHUB_SECRET = 'attacks-github-client-secret';

/**
 * Strings an attacker puts in `redirect_to` to have the service send a browser, with its one-time
 * code, anywhere but the app: each is refused at /authorize (422), never redirected to.
 */
const HOSTILE_REDIRECTS = [
  'javascript:alert(document.domain)',
  'JaVaScRiPt:alert(1)',
  ' javascript:alert(1)',
  'data:text/html,<script>alert(1)</script>',
  '//evil.example',
  '///evil.example',
  '//evil.example/%2e%2e',
  `${APP_ORIGIN}@evil.example`,
  'https://app.example@evil.example/',
  'https://app.example.evil.example/',
  'https://evil.example/',
  'http://app.example/',
  'https://app.example:8443/',
  '/\\evil.example',
  '\\\\evil.example',
  '\\/evil.example',
  'https:\\\\evil.example',
  '/\t/evil.example',
  '%2F%2Fevil.example',
  'javascript%3Aalert(1)',
  'evil.example',
  '',
];

/** What a browser holds midway: the provider answered, the callback not yet visited. */
async function atProvider(service: TestApplication, slug: string) {
  const { verifier, challenge } = pkcePair();
  const query = new URLSearchParams({ redirect_to: `${APP_ORIGIN}/signed-in`, code_challenge: challenge });
  const started = await service.app.request(`/v1/oauth/${slug}/authorize?${query}`);
  expect(started.status).toBe(302);
  const cookie = started.headers.getSetCookie()[0]?.split(';')[0] ?? '';
  const answer = await visitAuthorizationUrl(started.headers.get('location') ?? '');
  return { verifier, cookie, answer };
}

const callback = (service: TestApplication, slug: string, answer: Record<string, string>, cookie?: string) =>
  service.app.request(`/v1/oauth/${slug}/callback?${new URLSearchParams(answer)}`, {
    headers: cookie ? { Cookie: cookie } : {},
  });

/** A callback the service refused itself: 400 invalid_oauth_state, and no redirect to anywhere. */
async function expectStateRefused(response: Response) {
  expect(response.status).toBe(400);
  expect(response.headers.get('location')).toBeNull();
  expect(await errorCodeOf(response)).toBe('invalid_oauth_state');
}

/**
 * The attacks on "sign in with", each as its attacker would run it against the real service and
 * real providers on loopback, on SQLite and PostgreSQL (two instances over one database).
 */
describe.each(BACKENDS)('attacks on signing in with other identity providers, on %s', (backend) => {
  const upstream = new OidcUpstream();
  const github = new GithubFake('gh-client', GITHUB_SECRET);
  const two = twoInstances(backend, LOOPBACK_PROVIDERS_ENV);
  /** Everything a response or a log line must never hold. */
  const secrets = new Set([OIDC_SECRET, GITHUB_SECRET]);
  /** The apps' PKCE verifiers: only ever sent, never answered. */
  const verifiers = new Set<string>();
  /** Every answer of the service seen in the suite, as text. */
  const answers: string[] = [];
  const signIn = async (...args: Parameters<typeof signInWith>) => {
    const trip = await signInWith(...args);
    answers.push(...trip.browser.seen);
    verifiers.add(trip.verifier);
    return trip;
  };
  const redeem = async (...args: Parameters<typeof redeemCode>) => {
    const answer = await redeemCode(...args);
    answers.push(await answer.clone().text());
    return answer;
  };
  let adminToken: string;
  beforeAll(async () => {
    await Promise.all([upstream.start(), github.start()]);
    const oidc = { kind: 'oidc', issuer: upstream.issuer, client_id: 'uas-client', client_secret: OIDC_SECRET };
    await createProvider(two.clientA, { slug: 'corp', ...oidc, auto_link: true });
    await createProvider(two.clientA, { slug: 'other', ...oidc, auto_link: true });
    await createProvider(two.clientA, {
      slug: 'github',
      kind: 'github',
      issuer: github.issuer,
      client_id: 'gh-client',
      client_secret: GITHUB_SECRET,
      auto_link: true,
    });
    // Microsoft's preset with the loopback provider as its issuer (a tenant's, as an admin may set).
    await createProvider(two.clientA, {
      slug: 'entra',
      kind: 'microsoft',
      issuer: upstream.issuer,
      client_id: 'uas-client',
      client_secret: OIDC_SECRET,
      auto_link: true,
    });
    adminToken = await two.clientA.adminToken();
  });
  afterAll(() => Promise.all([upstream.stop(), github.stop()]));

  const identitiesOf = async (client: AdminClient, userId: string) =>
    (
      (await (await client.get(`/v1/admin/users/${userId}/identities`, adminToken)).json()) as {
        meta: { total: number };
      }
    ).meta.total;

  it('pre-account takeover: a local unverified account holding the victim’s address gets no link, even with auto_link', async () => {
    const { a, clientA, clientB } = two;
    const victim = `victim-${backend}@example.com`;
    // The attacker signs up first with the victim's address and a password of its own; never verified.
    const attacker = await clientA.createUser({ email: victim, email_verified: false });
    expect(attacker.attributes.email_verified).toBeNull();
    upstream.claims = { sub: `victim-${backend}`, email: victim, email_verified: true };
    const trip = await signIn(a, 'corp');
    expect([trip.code, trip.error]).toEqual([null, 'identity_not_linked']);
    expect(await identitiesOf(clientB, attacker.id)).toBe(0);
    // Nor does a second try, on the other instance: the attacker's account stays without the victim's identity.
    expect((await signIn(two.b, 'corp')).error).toBe('identity_not_linked');
    expect(await identitiesOf(clientA, attacker.id)).toBe(0);
  });

  it('a provider that says email_verified false: no link to the holder of the address; a new user is unverified', async () => {
    const { a, b, clientA, clientB } = two;
    const holder = await clientA.createUser({ email: `holder-${backend}@example.com`, email_verified: true });
    upstream.claims = { sub: `unverified-${backend}`, email: holder.attributes.email, email_verified: false };
    expect((await signIn(a, 'corp')).error).toBe('identity_not_linked');
    expect(await identitiesOf(clientA, holder.id)).toBe(0);

    upstream.claims = {
      sub: `unverified-new-${backend}`,
      email: `fresh-${backend}@example.com`,
      email_verified: false,
    };
    // Created as the provider vouched (unverified), so EMAIL_VERIFICATION=required (the default) refuses it.
    expect((await signIn(b, 'corp')).error).toBe('email_not_verified');
    const found = await clientB.get(`/v1/admin/users?search[email]=fresh-${backend}@`, adminToken);
    expect((await found.json()).data.map((user: { attributes: object }) => user.attributes)).toEqual([
      expect.objectContaining({ email: `fresh-${backend}@example.com`, email_verified: null }),
    ]);
  });

  it("what the provider says is checked as any input: a bad subject is the provider's error, a bad name is cleaned, never a 500", async () => {
    const { a, b, clientA } = two;
    for (const sub of ['', 'a\u0000b', 'x'.repeat(256)]) {
      upstream.claims = { sub, email: `bad-sub-${backend}@example.com`, email_verified: true };
      expect((await signIn(a, 'corp')).error).toBe('identity_provider_error');
    }
    const names = [
      ['nul', 'a\u0000b', 'ab'],
      ['long', 'N'.repeat(3000), 'N'.repeat(200)],
      ['bidi', 'evil\u202eadmin', 'eviladmin'],
    ];
    for (const [tag, name, stored] of names) {
      const email = `name-${tag}-${backend}@example.com`;
      upstream.claims = { sub: `name-${tag}-${backend}`, email, email_verified: true, name };
      expect((await signIn(b, 'corp')).code).toEqual(expect.any(String));
      const found = await clientA.get(`/v1/admin/users?search[email]=${encodeURIComponent(email)}`, adminToken);
      expect((await found.json()).data.map((user: { attributes: { name: string } }) => user.attributes.name)).toEqual([
        stored,
      ]);
    }
    // An email that is no address is none: without one, no account can be made.
    upstream.claims = { sub: `bad-email-${backend}`, email: 'a\u0000b@example.com', email_verified: true };
    expect((await signIn(a, 'corp')).error).toBe('identity_email_missing');
  });

  it("an address squatted through a provider that did not vouch for it: its owner recovers it by mail, and the squatter's identity is unlinked", async () => {
    const { a, b, clientA, clientB } = two;
    const victim = `squatted-${backend}@example.com`;
    upstream.claims = { sub: `squatter-${backend}`, email: victim, email_verified: false };
    // The squatter's sign-in makes a password-less user holding the victim's address, unverified.
    expect((await signIn(a, 'corp')).error).toBe('email_not_verified');
    const squatted = await clientA.get(`/v1/admin/users?search[email]=${encodeURIComponent(victim)}`, adminToken);
    const [account] = (await squatted.json()).data as { id: string }[];
    expect(await identitiesOf(clientA, account!.id)).toBe(1);
    // The owner of the mailbox asks for recovery (the same answer as for any address) and follows the link.
    const asked = await clientB.send('POST', '/v1/recover', { email: victim });
    expect(asked.status).toBe(202);
    await b.useCases.mailRequests.resolveDue(100);
    const token = await mailedToken(clientA, 'recovery', victim);
    const reset = await clientB.send('POST', '/v1/reset-password', { token, password: 'the owner password 1' });
    expect(reset.status).toBe(204);
    expect(await identitiesOf(clientA, account!.id)).toBe(0);
    const events = await clientA.get(
      `/v1/admin/audit-events?filter[action]=user.identity_unlinked&filter[target]=${account!.id}`,
      adminToken,
    );
    expect(
      (await events.json()).data.map((event: { attributes: { changes: unknown } }) => event.attributes.changes),
    ).toEqual([{ identity: { before: { provider: 'corp', subject: `squatter-${backend}` }, after: null } }]);
    // The owner's password opens the account; the squatter's provider account no longer reaches it.
    expect((await clientB.userSession(victim, 'the owner password 1')).accessToken).toEqual(expect.any(String));
    expect((await signIn(b, 'corp')).error).toBe('identity_not_linked');
    expect(await identitiesOf(clientB, account!.id)).toBe(0);
  });

  it("a provider's issuer cannot change once users have identities through it: the new issuer's subjects would be strangers", async () => {
    const { a, clientA, clientB } = two;
    const id = await createProvider(clientA, {
      slug: 'moving',
      kind: 'oidc',
      issuer: upstream.issuer,
      client_id: 'uas-client',
      client_secret: OIDC_SECRET,
    });
    const patch = (client: AdminClient, attributes: Record<string, unknown>) =>
      client.send(
        'PATCH',
        `/v1/admin/identity-providers/${id}`,
        { data: { type: 'identity_providers', attributes } },
        adminToken,
      );
    // Unused, the provider may be pointed elsewhere and back.
    expect((await patch(clientA, { issuer: 'https://elsewhere.example' })).status).toBe(200);
    expect((await patch(clientB, { issuer: upstream.issuer })).status).toBe(200);
    upstream.claims = { sub: `moving-${backend}`, email: `moving-${backend}@example.com`, email_verified: true };
    expect((await signIn(a, 'moving')).code).toEqual(expect.any(String));
    const refused = await patch(clientB, { issuer: 'https://elsewhere.example' });
    expect(refused.status).toBe(422);
    expect((await refused.json()).errors).toMatchObject([
      { code: 'invalid_attribute', source: { pointer: '/data/attributes/issuer' } },
    ]);
    // Anything else still changes; the issuer stays.
    const renamed = await patch(clientA, { auto_link: true });
    expect(renamed.status).toBe(200);
    expect((await renamed.json()).data.attributes.issuer).toBe(upstream.issuer);
  });

  it('Microsoft (nOAuth): an email with no xms_edov, or only email_verified, never links to its holder', async () => {
    const { a, clientA } = two;
    const ceo = await clientA.createUser({ email: `ceo-${backend}@example.com`, email_verified: true });
    for (const vouching of [{}, { email_verified: true }, { xms_edov: 'true' }]) {
      upstream.claims = {
        sub: 'pairwise',
        tid: 'attacker-tenant',
        oid: `oid-${backend}`,
        email: ceo.attributes.email,
        ...vouching,
      };
      expect((await signIn(a, 'entra')).error).toBe('identity_not_linked');
    }
    expect(await identitiesOf(clientA, ceo.id)).toBe(0);
    // Only the tenant's own word for the domain links it.
    upstream.claims = {
      sub: 'pairwise',
      tid: 'home-tenant',
      oid: `oid-${backend}`,
      email: ceo.attributes.email,
      xms_edov: true,
    };
    const trip = await signIn(a, 'entra');
    expect((await me(clientA, await accessTokenOf(await redeem(clientA, trip.code, trip.verifier)))).id).toBe(ceo.id);
  });

  it("the state of provider A at B's callback, a state used twice, no cookie, another browser's cookie: 400 invalid_oauth_state, never redirected", async () => {
    const { a, b } = two;
    upstream.claims = { sub: `state-${backend}`, email: `state-${backend}@example.com`, email_verified: true };
    const mine = await atProvider(a, 'corp');
    await expectStateRefused(await callback(b, 'other', mine.answer, mine.cookie));
    await expectStateRefused(await callback(a, 'corp', mine.answer));
    const theirs = await atProvider(b, 'corp');
    await expectStateRefused(await callback(a, 'corp', mine.answer, theirs.cookie));

    const fresh = await atProvider(a, 'corp');
    const first = await callback(b, 'corp', fresh.answer, fresh.cookie);
    answers.push(`${[...first.headers].join(' ')} ${await first.clone().text()}`);
    expect(first.status).toBe(302);
    expect(first.headers.get('location')).toMatch(/^https:\/\/app\.example\/signed-in\?code=[\w-]+$/);
    await expectStateRefused(await callback(a, 'corp', fresh.answer, fresh.cookie));
    for (const each of [mine, theirs, fresh]) secrets.add(each.answer.code!).add(each.answer.state!);
  });

  it('a code used twice, a wrong code_verifier, a code without one: 400 invalid_oauth_code, and the code is spent', async () => {
    const { a, clientA, clientB } = two;
    upstream.claims = { sub: `code-${backend}`, email: `code-${backend}@example.com`, email_verified: true };
    const twice = await signIn(a, 'corp');
    await accessTokenOf(await redeem(clientA, twice.code, twice.verifier));
    const again = await redeem(clientB, twice.code, twice.verifier);
    expect([again.status, await errorCodeOf(again)]).toEqual([400, 'invalid_oauth_code']);

    const wrong = await signIn(a, 'corp');
    const guessed = await redeem(clientA, wrong.code, pkcePair().verifier);
    expect([guessed.status, await errorCodeOf(guessed)]).toEqual([400, 'invalid_oauth_code']);
    const late = await redeem(clientB, wrong.code, wrong.verifier);
    expect([late.status, await errorCodeOf(late)]).toEqual([400, 'invalid_oauth_code']);

    const bare = await signIn(a, 'corp');
    const without = await clientA.send('POST', '/v1/oauth/token', { code: bare.code });
    expect(without.status).toBe(422);
    for (const trip of [twice, wrong, bare]) secrets.add(trip.code!).add(trip.verifier);
  });

  it("a link code redeemed with another user's bearer, or at /v1/oauth/token, never links nor signs in", async () => {
    const { b, clientA, clientB } = two;
    const victimUser = await clientA.createUser({ email: `link-victim-${backend}@example.com` });
    const attackerUser = await clientA.createUser({ email: `link-attacker-${backend}@example.com` });
    const victim = await clientA.userSession(victimUser.attributes.email, USER_PASSWORD);
    const attacker = await clientB.userSession(attackerUser.attributes.email, USER_PASSWORD);
    github.user = { id: backend === 'sqlite' ? 7001 : 7002, login: 'linked' };
    github.emails = [{ email: `linked-gh-${backend}@example.com`, primary: true, verified: true }];
    const startLink = async () => {
      const { verifier, challenge } = pkcePair();
      const started = await clientA.send(
        'POST',
        '/v1/users/me/identities',
        { provider: 'github', redirect_to: `${APP_ORIGIN}/linked`, code_challenge: challenge },
        victim.accessToken,
      );
      expect(started.status).toBe(201);
      const { url } = await new OAuthBrowser(b).navigate((await started.json()).data.attributes.authorize_url);
      const code = url?.searchParams.get('code') ?? '';
      secrets.add(code).add(verifier);
      return { code, verifier };
    };
    const stolen = await startLink();
    const bySomeoneElse = await clientB.send(
      'POST',
      '/v1/users/me/identities/complete',
      { code: stolen.code, code_verifier: stolen.verifier },
      attacker.accessToken,
    );
    expect([bySomeoneElse.status, await errorCodeOf(bySomeoneElse)]).toEqual([400, 'invalid_oauth_code']);
    const asSignIn = await startLink();
    const signedIn = await redeem(clientB, asSignIn.code, asSignIn.verifier);
    expect([signedIn.status, await errorCodeOf(signedIn)]).toEqual([400, 'invalid_oauth_code']);
    expect(await identitiesOf(clientA, victimUser.id)).toBe(0);
    expect(await identitiesOf(clientA, attackerUser.id)).toBe(0);
  });

  it.each<IdTokenTampering>(['nonce', 'issuer', 'signature', 'audience', 'expired'])(
    'an ID token with a wrong %s goes back to redirect_to as identity_provider_error, the reason only in the log',
    async (tampering) => {
      const { a, clientA } = two;
      upstream.claims = { sub: `tampered-${backend}`, email: `tampered-${backend}@example.com`, email_verified: true };
      upstream.tampering = tampering;
      try {
        const trip = await signIn(a, 'corp');
        expect(trip.landed?.href).toBe(`${APP_ORIGIN}/signed-in?error=identity_provider_error`);
      } finally {
        upstream.tampering = null;
      }
      expect(a.logs.some((line) => line.includes('identity provider refused a sign-in'))).toBe(true);
      const lookup = await clientA.get(`/v1/admin/users?search[email]=tampered-${backend}`, adminToken);
      expect((await lookup.json()).data).toEqual([]);
    },
  );

  it.each(HOSTILE_REDIRECTS)(
    'redirect_to %j is refused with 422 at /authorize and at a link, never a Location',
    async (target) => {
      const { a, clientA } = two;
      const { challenge } = pkcePair();
      const query = new URLSearchParams({ redirect_to: target, code_challenge: challenge });
      const refused = await a.app.request(`/v1/oauth/corp/authorize?${query}`);
      expect(refused.status).toBe(422);
      expect(refused.headers.get('location')).toBeNull();
      expect(refused.headers.getSetCookie()).toEqual([]);
      expect((await refused.json()).errors[0]).toMatchObject({
        code: 'invalid_attribute',
        source: { parameter: 'redirect_to' },
      });

      const user = await clientA.createUser({ email: `redirect-${crypto.randomUUID()}@example.com` });
      const { accessToken } = await clientA.userSession(user.attributes.email, USER_PASSWORD);
      const link = await clientA.send(
        'POST',
        '/v1/users/me/identities',
        { provider: 'corp', redirect_to: target, code_challenge: challenge },
        accessToken,
      );
      expect(link.status).toBe(422);
    },
  );

  it('never logs a client secret, a provider code, a state, a one-time code or a verifier, nor answers a secret or a verifier', () => {
    const { a, b, clientA, clientB } = two;
    clientA.expectCleanLogs();
    clientB.expectCleanLogs();
    const logs = [...a.logs, ...b.logs].join('\n');
    expect(secrets.size).toBeGreaterThan(10);
    for (const secret of secrets) expect(logs.includes(secret), `a log line holds ${secret.slice(0, 8)}…`).toBe(false);
    // The answers carry states and one-time codes where they belong (Location): never a secret or a verifier.
    const answered = answers.join('\n');
    expect(answers.length).toBeGreaterThan(30);
    for (const secret of [OIDC_SECRET, GITHUB_SECRET, ...verifiers]) {
      expect(answered.includes(secret), `an answer holds ${secret.slice(0, 8)}…`).toBe(false);
    }
  });
});
