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

/** Verifies as an application would, with the keys published now. */
async function verifiesWithJwks(t: TestApplication, token: string): Promise<void> {
  await jwtVerify(token, createLocalJWKSet(await publishedKeys(t)), {
    issuer: 'user-account-service',
    audience: 'app',
    currentDate: t.clock.now(),
  });
}

describe.each(BACKENDS)('signing-key rotation on %s', (backend) => {
  const scenario = userScenario(backend, {
    env: { ACCESS_TOKEN_TTL_SECONDS: String(ACCESS_TTL), REFRESH_TOKEN_TTL_SECONDS: String(REFRESH_TTL) },
    fresh: 'each',
  });

  it('the rotate-keys command stores a new signing key and gives the old one a retirement after the longest token lifetime', async () => {
    const { t } = scenario;
    const [first] = await storedSigningKeys(t);
    const startedAt = Date.now();
    const { kid, stdout } = await runRotateKeys(t.env);
    expect(stdout).toBe(
      `New signing key ${kid} (ES256) is now in use; previous keys verify until their tokens expire.\n`,
    );

    const [newest, previous, ...others] = await storedSigningKeys(t);
    expect(others).toEqual([]);
    expect(newest).toMatchObject({ kid, algorithm: 'ES256', retires: null });
    expect(previous?.kid).toBe(first?.kid);
    const retires = previous!.retires!.getTime();
    expect(retires).toBeGreaterThanOrEqual(startedAt + RETIRE_AFTER * 1000);
    expect(retires).toBeLessThanOrEqual(Date.now() + RETIRE_AFTER * 1000);
  });

  it('after rotate-keys the running instance signs with the new key within a minute; old tokens keep working and nobody is logged out', async () => {
    const { t, api } = scenario;
    const user = await api.createUser();
    const before = await api.loginAs(user);
    const adminBefore = await api.client.adminSession();
    const oldKid = kidOf(before.accessToken);
    const { kid: newKid } = await runRotateKeys(t.env);

    t.clock.advance(RELOAD_SECONDS + 1);
    expect((await publishedKeys(t)).keys.map((key) => key.kid)).toEqual([newKid, oldKid]);
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

  it("another instance on the same database signs with the new key at once, and each instance accepts the other's tokens right away", async () => {
    const { t, api } = scenario;
    const user = await api.createUser();
    const onFirst = await api.loginAs(user);
    const { kid: newKid } = await runRotateKeys(t.env);
    const second = await startTestApplication(backend, t.env);
    try {
      const secondApi = new UserClient(new AdminClient(second));
      const onSecond = await secondApi.loginAs(user);
      expect(kidOf(onSecond.accessToken)).toBe(newKid);
      expect((await publishedKeys(second)).keys.map((key) => key.kid)).toEqual([newKid, kidOf(onFirst.accessToken)]);

      expect((await secondApi.me(onFirst.accessToken)).status).toBe(200);
      expect((await api.me(onSecond.accessToken)).status).toBe(200);
      expect((await api.refresh(onSecond.refreshToken)).status).toBe(200);
      expect((await secondApi.refresh(onFirst.refreshToken)).status).toBe(200);
      secondApi.client.expectCleanLogs();
    } finally {
      await second.close();
    }
  });

  it('a replaced key leaves the JWKS once every token it signed has expired', async () => {
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
      }).rotate(),
    );

    t.clock.advance(RETIRE_AFTER - 1);
    expect(kidOf((await api.loginAs(await api.createUser())).accessToken)).toBe(rotated.kid);
    expect((await publishedKeys(t)).keys.map((key) => key.kid)).toEqual([rotated.kid, oldKid]);
    t.clock.advance(RELOAD_SECONDS + 1);
    expect((await publishedKeys(t)).keys.map((key) => key.kid)).toEqual([rotated.kid]);
  });
});
