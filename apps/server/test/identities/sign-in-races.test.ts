import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { visitAuthorizationUrl } from '../support/fake-provider-server';
import { createProvider, redeem } from '../support/identity-trips';
import { APP_ORIGIN, LOOPBACK_PROVIDERS_ENV, pkcePair } from '../support/oauth-browser';
import { OidcUpstream } from '../support/oidc-upstream';
import { ROUNDS, rounds, tally } from '../support/race-rounds';
import { BACKENDS, type TestApplication } from '../support/test-application';
import { twoInstances } from '../support/two-instances';
import { claimsOf } from '../support/user-client';

/** A browser back from the provider, its callback not yet visited: how to visit it on either instance. */
async function backFromProvider(service: TestApplication) {
  const { verifier, challenge } = pkcePair();
  const query = new URLSearchParams({ redirect_to: `${APP_ORIGIN}/signed-in`, code_challenge: challenge });
  const started = await service.app.request(`/v1/oauth/corp/authorize?${query}`);
  expect(started.status).toBe(302);
  const cookie = started.headers.getSetCookie()[0]?.split(';')[0] ?? '';
  const answer = new URLSearchParams(await visitAuthorizationUrl(started.headers.get('location') ?? ''));
  const callback = (instance: TestApplication) =>
    instance.app.request(`/v1/oauth/corp/callback?${answer}`, { headers: { Cookie: cookie } });
  return { verifier, callback };
}

const codeIn = (response: Response) =>
  response.status === 302 ? new URL(response.headers.get('location') ?? '').searchParams.get('code') : null;

/**
 * The single-use things of "sign in with", raced with truly concurrent requests across two
 * instances over one database, ROUNDS rounds per database: what was used twice or lost is counted.
 */
describe.each(BACKENDS)('signing in with a provider, raced across two instances on %s', (backend) => {
  const upstream = new OidcUpstream();
  const two = twoInstances(backend, LOOPBACK_PROVIDERS_ENV);
  beforeAll(async () => {
    await upstream.start();
    await createProvider(two.clientA, {
      slug: 'corp',
      kind: 'oidc',
      issuer: upstream.issuer,
      client_id: 'uas-client',
      client_secret: 'races-client-secret',
      auto_link: true,
    });
    upstream.claims = { sub: `racer-${backend}`, email: `racer-${backend}@example.com`, email_verified: true };
  });
  afterAll(() => upstream.stop());

  it(`one state's callback twice at once: exactly one code, ${ROUNDS} rounds`, async () => {
    const outcomes = await rounds(async () => {
      const { callback } = await backFromProvider(two.a);
      const answers = await Promise.all([callback(two.a), callback(two.b)]);
      return answers
        .map((answer) => (codeIn(answer) ? 'code' : String(answer.status)))
        .sort()
        .join(' ');
    });
    console.info(`one state's callback twice at once (${backend}):`, tally(outcomes));
    expect(tally(outcomes)).toEqual({ '400 code': ROUNDS });
  }, 120_000);

  it(`one code redeemed twice at once: exactly one session, ${ROUNDS} rounds`, async () => {
    const outcomes = await rounds(async () => {
      const { verifier, callback } = await backFromProvider(two.a);
      const code = codeIn(await callback(two.b));
      const answers = await Promise.all([redeem(two.clientA, code, verifier), redeem(two.clientB, code, verifier)]);
      return answers
        .map((answer) => String(answer.status))
        .sort()
        .join(' ');
    });
    console.info(`one code redeemed twice at once (${backend}):`, tally(outcomes));
    expect(tally(outcomes)).toEqual({ '200 400': ROUNDS });
  }, 120_000);

  it(`two first sign-ins of one new account at once: one user, one identity, both signed in, ${ROUNDS} rounds`, async () => {
    const admin = await two.clientA.adminToken();
    const outcomes: string[] = [];
    // One round at a time: the provider's claims are the round's account (each round is itself concurrent).
    for (let index = 0; index < ROUNDS; index++) {
      const email = `first-${index}-${backend}@example.com`;
      // Both browsers come back from the provider with the same account before either callback.
      upstream.claims = { sub: `first-${index}-${backend}`, email, email_verified: true };
      const browsers = await Promise.all([backFromProvider(two.a), backFromProvider(two.b)]);
      const answers = await Promise.all([browsers[0].callback(two.a), browsers[1].callback(two.b)]);
      const sessions = await Promise.all(
        answers.map(async (answer, i) => {
          const token = await redeem(i === 0 ? two.clientA : two.clientB, codeIn(answer), browsers[i]!.verifier);
          if (token.status !== 200) return null;
          return claimsOf((await token.json()).data.attributes.access_token as string).sub ?? null;
        }),
      );
      const users = (
        await (await two.clientA.get(`/v1/admin/users?search[email]=first-${index}-${backend}@`, admin)).json()
      ).data as { id: string }[];
      const identities =
        users.length === 1
          ? (await (await two.clientB.get(`/v1/admin/users/${users[0]!.id}/identities`, admin)).json()).meta.total
          : -1;
      const signedIn = sessions.filter((sub) => sub !== null && sub === users[0]?.id).length;
      outcomes.push(`users ${users.length} identities ${identities} signed-in ${signedIn}`);
    }
    console.info(`two first sign-ins of one account at once (${backend}):`, tally(outcomes));
    expect(tally(outcomes)).toEqual({ 'users 1 identities 1 signed-in 2': ROUNDS });
  }, 180_000);
});
