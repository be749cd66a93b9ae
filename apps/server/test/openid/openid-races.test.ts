import * as client from 'openid-client';
import { beforeAll, describe, expect, it } from 'vitest';
import { ROUNDS, rounds } from '../support/race-rounds';
import { BACKENDS } from '../support/test-application';
import { USER_PASSWORD } from '../support/wire';
import { RelyingParty, registerClient, useOpenIdProviders } from './op-test-plan-support';
import { authorize, type TestUser } from './user-agent';

const REDIRECT_URI = 'https://rp.example/callback';
/** A refresh token comes with offline_access, which OpenID Connect grants only with prompt=consent. */
const OFFLINE = { scope: 'openid email offline_access', prompt: 'consent' };

/** What went wrong in a round, counted over the rounds: every count must be zero. */
interface Counts {
  /** Both racing requests got tokens. */
  usedTwice: number;
  /** Neither got tokens, or what the winner got does not behave as it must afterwards. */
  lost: number;
}

/** Settles a token request as its tokens, or the OAuth error code the service answered. */
const settled = <T>(request: Promise<T>) =>
  request.then(
    (tokens) => ({ tokens }),
    (error: client.ResponseBodyError) => ({ error: String(error.error ?? error.message) }),
  );

/**
 * The provider's single-use things raced with truly concurrent token requests, ROUNDS rounds
 * each: one code redeemed twice at once, one refresh token used twice at once. On one instance
 * per database, and on two instances over one PostgreSQL (each racing request to its own
 * instance, as a load balancer would spread them). What was used twice or lost is counted.
 */
describe.each([
  ...BACKENDS.map((backend) => ({ name: `one instance on ${backend}`, backend, instances: 1 })),
  { name: 'two instances on one PostgreSQL', backend: 'postgres' as const, instances: 2 },
])('OpenID races, $name', ({ name, backend, instances }) => {
  const op = useOpenIdProviders(backend, instances);
  let user: TestUser;
  /** The relying party as each racing request reaches the service: through the first instance, and the second (or the first again). */
  let racers: [RelyingParty, RelyingParty];

  beforeAll(async () => {
    const email = `racer-${backend}-${instances}@example.com`;
    const created = await op().admin.createUser({ email, name: 'Racer' });
    user = { id: created.id, email, password: USER_PASSWORD };
    const registered = await registerClient(op().admin, {
      name: 'Racing client',
      type: 'confidential',
      redirect_uris: [REDIRECT_URI],
      scopes: ['openid', 'email', 'offline_access'],
      first_party: true,
    });
    const [first, second = first] = op().origins;
    racers = [
      await RelyingParty.of(op().issuer, registered, { via: first }),
      await RelyingParty.of(op().issuer, registered, { via: second }),
    ];
  }, 60_000);

  /**
   * A fresh code, with what its redemption must check: each round's own browser signs in (a
   * browser has one authorization in progress at a time, as its interaction cookie says).
   */
  async function freshCode(parameters: Record<string, string> = {}) {
    const pending = await racers[0].request(parameters);
    const { callback } = await authorize(op().agent(), pending.url, user);
    return { pending, callback };
  }

  /** Whether an access token still reads the user's claims. */
  const works = (accessToken: string) =>
    client.fetchUserInfo(racers[0].config, accessToken, user.id).then(
      () => true,
      () => false,
    );

  it(`one code redeemed twice at once: tokens exactly once, and revoked since a replay happened, ${ROUNDS} rounds`, async () => {
    const counts: Counts = { usedTwice: 0, lost: 0 };
    let revoked = 0;
    await rounds(async () => {
      const { pending, callback } = await freshCode(OFFLINE);
      const answers = await Promise.all(racers.map((racer) => settled(racer.redeem(callback, pending))));
      const winners = answers.flatMap((answer) => ('tokens' in answer ? [answer.tokens] : []));
      if (winners.length === 2) return void counts.usedTwice++;
      const [winner] = winners;
      const loser = answers.find((answer) => 'error' in answer);
      if (!winner || !loser || !('error' in loser) || loser.error !== 'invalid_grant') return void counts.lost++;
      // The replay revoked the grant: whatever the winner got stops working, on either instance.
      const introspected = await client.tokenIntrospection(racers[1].config, winner.access_token);
      const refreshed = await settled(client.refreshTokenGrant(racers[1].config, winner.refresh_token!));
      if (!(await works(winner.access_token)) && !introspected.active && 'error' in refreshed) revoked++;
    });
    console.info(`one code redeemed twice at once (${name}):`, { ...counts, revoked });
    expect({ ...counts, revoked }).toEqual({ usedTwice: 0, lost: 0, revoked: ROUNDS });
  }, 180_000);

  it(`one sign-in form posted twice at once (a double click): never a fault, and the browser goes on to a code, ${ROUNDS} rounds`, async () => {
    let faults = 0;
    let lost = 0;
    let twoCodes = 0;
    await rounds(async (round) => {
      // A user of its own each round: the throttle counts logins in flight per account and address.
      const email = `double-${backend}-${instances}-${round}@example.com`;
      await op().admin.createUser({ email, name: 'Double' });
      const pending = await racers[0].request();
      const agent = op().agent();
      const page = await agent.navigate(pending.url);
      const form = { email, password: USER_PASSWORD };
      // Each post to its own instance when there are two, as a load balancer may spread them.
      const twin = agent.twin(op().origins[1] ?? op().origins[0]!);
      const stops = await Promise.all([agent.submit(page, form), twin.submit(page, form)]);
      if (stops.some((stop) => stop.kind === 'page' && stop.status >= 500)) faults++;
      const codes = stops.flatMap((stop) => (stop.kind === 'left' ? [stop.url.searchParams.get('code')] : []));
      if (codes.length === 0) lost++;
      // Both may carry the one authorization on (each its own single-use code, for the same client,
      // redirect URI, PKCE challenge and nonce): a browser follows the last answer only.
      if (new Set(codes).size === 2) twoCodes++;
    });
    console.info(`one sign-in form posted twice at once (${name}):`, { faults, lost, twoCodes });
    expect({ faults, lost }).toEqual({ faults: 0, lost: 0 });
  }, 180_000);

  it(`one refresh token used twice at once: exactly one new pair, which keeps working, ${ROUNDS} rounds`, async () => {
    const counts: Counts = { usedTwice: 0, lost: 0 };
    await rounds(async () => {
      const { pending, callback } = await freshCode(OFFLINE);
      const { refresh_token: refreshToken } = await racers[0].redeem(callback, pending);
      const answers = await Promise.all(
        racers.map((racer) => settled(client.refreshTokenGrant(racer.config, refreshToken!))),
      );
      const winners = answers.flatMap((answer) => ('tokens' in answer ? [answer.tokens] : []));
      if (winners.length === 2) return void counts.usedTwice++;
      const [winner] = winners;
      // Within the reuse grace window, the loser's invalid_grant revokes nothing: the new pair works.
      if (!winner || !(await works(winner.access_token))) return void counts.lost++;
      const next = await settled(client.refreshTokenGrant(racers[1].config, winner.refresh_token!));
      if (!('tokens' in next)) counts.lost++;
    });
    console.info(`one refresh token used twice at once (${name}):`, counts);
    expect(counts).toEqual({ usedTwice: 0, lost: 0 });
  }, 180_000);
});
