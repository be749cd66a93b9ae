import { JWKS_MAX_AGE_SECONDS } from '@uas/adapters-http';
import { createLocalJWKSet, jwtVerify, type JSONWebKeySet } from 'jose';
import { describe, expect, it } from 'vitest';
import { KeyRing } from '../../src/adapters/key-ring';
import { RandomIdGenerator } from '../../src/adapters/random-id-generator';
import { runRotateKeys } from '../support/rotate-keys-command';
import { AdminClient } from '../support/admin-client';
import { headerOf, UserClient, userScenario } from '../support/user-client';
import { sessionOf } from '../support/admin-api';
import { BACKENDS, startTestApplication, type TestApplication } from '../support/test-application';
import { storedSigningKeys, withApplicationDatabase } from '../support/token-forgery';

const ACCESS_TTL = 600;
const REFRESH_TTL = 3600;
/** The longest token lifetime plus the clock tolerance: how long a replaced key keeps verifying. */
const RETIRE_AFTER = REFRESH_TTL + 5;
/** How often a running instance reads the stored keys again. */
const RELOAD_SECONDS = 60;

const kidOf = (token: string) => headerOf(token).kid;

async function publishedKeys(t: TestApplication): Promise<JSONWebKeySet> {
  return (await t.app.request('/.well-known/jwks.json')).json();
}

const publishedKids = async (t: TestApplication) => (await publishedKeys(t)).keys.map((key) => key.kid);

/** Verifies as an application would, with the key set `jwks`. */
async function verifies(t: TestApplication, jwks: JSONWebKeySet, token: string): Promise<void> {
  await jwtVerify(token, createLocalJWKSet(jwks), {
    issuer: 'user-account-service',
    audience: 'app',
    currentDate: t.clock.now(),
  });
}

/** Verifies as an application would, with the keys published now. */
const verifiesWithJwks = async (t: TestApplication, token: string) => verifies(t, await publishedKeys(t), token);

/**
 * A verifier that keeps the JWKS it fetched for the `max-age` the service sends, and never looks
 * again before then: what an HTTP cache in front of a verifier does.
 */
class CachingVerifier {
  private cached: { jwks: JSONWebKeySet; expires: number } | undefined;

  constructor(private readonly t: TestApplication) {}

  async verify(token: string): Promise<void> {
    const now = this.t.clock.now().getTime();
    if (!this.cached || now >= this.cached.expires) {
      const response = await this.t.app.request('/.well-known/jwks.json');
      const maxAge = Number(/max-age=(\d+)/.exec(response.headers.get('cache-control') ?? '')?.[1]);
      this.cached = { jwks: await response.json(), expires: now + maxAge * 1000 };
    }
    await verifies(this.t, this.cached.jwks, token);
  }

  get kids() {
    return this.cached?.jwks.keys.map((key) => key.kid);
  }
}

/** Seconds from now on the application's clock until `time`. */
const secondsUntil = (t: TestApplication, time: Date) => (time.getTime() - t.clock.now().getTime()) / 1000;

describe.each(BACKENDS)('signing-key rotation on %s', (backend) => {
  const scenario = userScenario(backend, {
    env: { ACCESS_TOKEN_TTL_SECONDS: String(ACCESS_TTL), REFRESH_TOKEN_TTL_SECONDS: String(REFRESH_TTL) },
    fresh: 'each',
  });

  it('the rotate-keys command stores a new key that signs from the absolute time it prints, more than the JWKS max-age ahead, and retires the old one a token lifetime after that', async () => {
    const { t } = scenario;
    const [first] = await storedSigningKeys(t);
    const { kid, stdout } = await runRotateKeys(t.env);
    const [newest, previous, ...others] = await storedSigningKeys(t);
    expect(others).toEqual([]);
    expect(newest).toMatchObject({ kid, algorithm: 'ES256', retires: null });
    const lead = (newest!.activates.getTime() - newest!.created.getTime()) / 1000;
    expect(lead).toBeGreaterThan(JWKS_MAX_AGE_SECONDS);
    expect(stdout).toBe(
      `New signing key ${kid} (ES256) is published now and signs new tokens from ${newest!.activates.toISOString()} (in ${lead} s, once every cached JWKS lists it); previous keys verify until their tokens expire.\n`,
    );
    expect(previous).toMatchObject({ kid: first?.kid, activates: first?.activates });
    expect(previous!.retires!.getTime()).toBe(newest!.activates.getTime() + RETIRE_AFTER * 1000);
  });

  it('after rotate-keys the new key is published within a minute, the old one keeps signing until the stored activation time, then the new one signs; nobody is logged out', async () => {
    const { t, api } = scenario;
    const user = await api.createUser();
    const before = await api.loginAs(user);
    const adminBefore = await api.client.adminSession();
    const oldKid = kidOf(before.accessToken);
    const { kid: newKid } = await runRotateKeys(t.env);
    const activates = (await storedSigningKeys(t))[0]!.activates;

    t.clock.advance(RELOAD_SECONDS + 1);
    expect(await publishedKids(t)).toEqual([newKid, oldKid]);
    expect(kidOf((await api.loginAs(user)).accessToken)).toBe(oldKid);
    t.clock.advance(secondsUntil(t, activates) - 1);
    expect(kidOf((await api.loginAs(user)).accessToken)).toBe(oldKid);

    t.clock.advance(secondsUntil(t, activates));
    const after = await api.loginAs(user);
    expect(kidOf(after.accessToken)).toBe(newKid);
    expect(kidOf(after.refreshToken)).toBe(newKid);
    expect((await api.me(before.accessToken)).status).toBe(200);
    expect((await api.client.get('/v1/admin/users', adminBefore.accessToken)).status).toBe(200);
    await verifiesWithJwks(t, before.accessToken);
    await verifiesWithJwks(t, after.accessToken);

    const refreshed = await sessionOf(await api.refresh(before.refreshToken));
    expect(kidOf(refreshed.accessToken)).toBe(newKid);
    expect((await api.me(refreshed.accessToken)).status).toBe(200);
  });

  it('a verifier caching the JWKS for its max-age never meets an unknown kid, even one that fetched it from an instance that had not read the new key yet', async () => {
    const { t, api } = scenario;
    const user = await api.createUser();
    const early = new CachingVerifier(t);
    await early.verify((await api.loginAs(user)).accessToken);
    const oldKid = early.kids?.[0];
    const { kid: newKid } = await runRotateKeys(t.env);
    const activates = (await storedSigningKeys(t))[0]!.activates;

    // The worst moment: the instance still serves the keys it read before the rotation.
    t.clock.advance(RELOAD_SECONDS - 1);
    const late = new CachingVerifier(t);
    await late.verify((await api.loginAs(user)).accessToken);
    expect(late.kids).toEqual([oldKid]);

    const seen = new Set<string | undefined>();
    const end = activates.getTime() + 2 * JWKS_MAX_AGE_SECONDS * 1000;
    while (t.clock.now().getTime() < end) {
      t.clock.advance(10);
      const { accessToken } = await api.loginAs(user);
      seen.add(kidOf(accessToken));
      await early.verify(accessToken);
      await late.verify(accessToken);
    }
    expect([...seen]).toEqual([oldKid, newKid]);
  });

  it('rotate-keys --now signs with the new key as soon as an instance reads it, which a verifier with a cached JWKS cannot verify yet; old tokens keep working', async () => {
    const { t, api } = scenario;
    const user = await api.createUser();
    const before = await api.loginAs(user);
    const cached = await publishedKeys(t);
    const { kid: newKid, stdout } = await runRotateKeys(t.env, ['--now']);
    expect(stdout).toBe(
      `New signing key ${newKid} (ES256) signs new tokens from now on; a verifier holding a cached JWKS refuses them until it fetches the JWKS again; previous keys verify until their tokens expire.\n`,
    );

    t.clock.advance(RELOAD_SECONDS + 1);
    const after = await api.loginAs(user);
    expect(kidOf(after.accessToken)).toBe(newKid);
    await expect(verifies(t, cached, after.accessToken)).rejects.toMatchObject({ code: 'ERR_JWKS_NO_MATCHING_KEY' });
    await verifiesWithJwks(t, after.accessToken);
    expect((await api.me(before.accessToken)).status).toBe(200);
    await verifies(t, cached, before.accessToken);
  });

  it('two instances on the same database switch to the new key at its stored activation time, not when each read it, and accept each other’s tokens', async () => {
    const { t, api } = scenario;
    const user = await api.createUser();
    const onFirst = await api.loginAs(user);
    const oldKid = kidOf(onFirst.accessToken);
    const { kid: newKid } = await runRotateKeys(t.env);
    const activates = (await storedSigningKeys(t))[0]!.activates;
    const second = await startTestApplication(backend, t.env);
    try {
      const secondApi = new UserClient(new AdminClient(second));
      // The second instance read the keys at its start, after the rotation; the first has not yet.
      expect(await publishedKids(second)).toEqual([newKid, oldKid]);
      expect(await publishedKids(t)).toEqual([oldKid]);
      expect(kidOf((await secondApi.loginAs(user)).accessToken)).toBe(oldKid);

      for (const instance of [t, second]) instance.clock.advance(secondsUntil(instance, activates));
      const onSecond = await secondApi.loginAs(user);
      expect(kidOf(onSecond.accessToken)).toBe(newKid);
      expect(kidOf((await api.loginAs(user)).accessToken)).toBe(newKid);

      expect((await secondApi.me(onFirst.accessToken)).status).toBe(200);
      expect((await api.me(onSecond.accessToken)).status).toBe(200);
      expect((await api.refresh(onSecond.refreshToken)).status).toBe(200);
      expect((await secondApi.refresh(onFirst.refreshToken)).status).toBe(200);
      secondApi.client.expectCleanLogs();
    } finally {
      await second.close();
    }
  });

  it('a replaced key leaves the JWKS once every token it signed, up to the new key’s activation, has expired', async () => {
    const { t, api } = scenario;
    const oldKid = kidOf((await api.loginAs(await api.createUser())).accessToken);
    t.clock.advance(1);
    const rotated = await withApplicationDatabase(t, (database) =>
      new KeyRing({
        keys: database.repositories.signingKeys,
        clock: t.clock,
        ids: new RandomIdGenerator(),
        algorithm: 'ES256',
        retireAfterSeconds: RETIRE_AFTER,
        jwksMaxAgeSeconds: JWKS_MAX_AGE_SECONDS,
        clockToleranceSeconds: 5,
      }).rotate(),
    );

    t.clock.advance(secondsUntil(t, rotated.activates) - 1);
    expect(kidOf((await api.loginAs(await api.createUser())).refreshToken)).toBe(oldKid);
    t.clock.advance(RETIRE_AFTER);
    expect(kidOf((await api.loginAs(await api.createUser())).accessToken)).toBe(rotated.kid);
    expect(await publishedKids(t)).toEqual([rotated.kid, oldKid]);
    t.clock.advance(RELOAD_SECONDS + 1);
    expect(await publishedKids(t)).toEqual([rotated.kid]);
  });
});
