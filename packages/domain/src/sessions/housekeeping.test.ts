import { describe, expect, it } from '../testing/test-api.ts';
import {
  inMemoryRepositories,
  InMemoryRateCounterRepository,
  ManualClock,
  sampleSession,
  sampleUser,
  IDENTITY_T0,
  sampleIdentityProvider,
  sampleOAuthAttempt,
  sampleOpenIdRecord,
  OPENID_T0,
  openIdAt,
} from '../testing/index.ts';
import { OAUTH_STATE_SECONDS } from '../identities/oauth-attempt.ts';
import { Housekeeping } from './housekeeping.ts';
import { SYSTEM } from '../audit/audit-event.ts';
import { auditRecord } from '../audit/audit-records.ts';
import { AuditService } from '../audit/audit-service.ts';
import { DEFAULT_THROTTLE_POLICY } from '../throttling/throttle.ts';
import { SECOND_FACTOR_RULES } from '../factors/second-factor-rules.ts';

/** Housekeeping over fresh in-memory repositories and a clock at `start`, keeping audit events `auditRetentionDays` (0: all). */
function housekeepingAt(start: Date) {
  const clock = new ManualClock(start);
  const repositories = inMemoryRepositories();
  const housekeeping = (auditRetentionDays = 0) =>
    new Housekeeping({ ...repositories, clock, throttle: DEFAULT_THROTTLE_POLICY, auditRetentionDays });
  return { clock, repositories, housekeeping };
}

describe('Housekeeping', () => {
  it('run() forgets expired sessions, sign-in challenges and failures outside the longest window that counts them', async () => {
    const clock = new ManualClock(new Date('2026-01-01T00:00:00.000Z'));
    const { users, sessions, attempts, signInChallenges, oauthAttempts, openIdRecords, audit } = inMemoryRepositories();
    const user = sampleUser({ id: 'u1' });
    await users.insert(user);
    const start = clock.now();
    const expires = new Date(start.getTime() + 60_000);
    await sessions.create(
      sampleSession({ id: 's1', subjectId: 'u1', created: start, expires }),
      { id: 't1', sessionId: 's1', issued: start, expires, retired: null, revoked: null },
      user,
    );
    await attempts.record('attempt-1', ['k'], start);
    const challenge = {
      id: 'c1',
      owner: 'user',
      subjectId: 'u1',
      kinds: ['totp'],
      webauthnChallenge: null,
      methods: ['pwd'],
      created: start,
      expires,
      failures: 0,
      completed: null,
      clientAddress: null,
      userAgent: null,
    } as const;
    await signInChallenges.create(challenge);
    const housekeeping = new Housekeeping({
      sessions,
      attempts,
      rateCounters: new InMemoryRateCounterRepository(),
      signInChallenges,
      oauthAttempts,
      openIdRecords,
      audit,
      clock,
      throttle: { perAccountAndAddress: { limit: 1, windowSeconds: 60 }, perAddress: { limit: 1, windowSeconds: 120 } },
      auditRetentionDays: 0,
    });

    clock.advance(30);
    await housekeeping.run();
    expect(await signInChallenges.find('c1')).toEqual(challenge);
    clock.advance(60);
    await housekeeping.run();
    expect(await sessions.findSession('s1')).toBeNull();
    expect(await signInChallenges.find('c1')).toBeNull();
    expect((await attempts.failuresSince('k', start)).count).toBe(1);

    // Past both throttling windows, the second step's lock still counts it, for its 15 minutes.
    clock.advance(31);
    await housekeeping.run();
    expect((await attempts.failuresSince('k', start)).count).toBe(1);
    clock.advance(SECOND_FACTOR_RULES.lock.seconds - 120);
    await housekeeping.run();
    expect((await attempts.failuresSince('k', start)).count).toBe(0);
  });

  it('run() forgets OAuth attempts once their state and their code both expired', async () => {
    const { clock, repositories, housekeeping } = housekeepingAt(IDENTITY_T0);
    const provider = sampleIdentityProvider();
    await repositories.identityProviders.create(
      provider,
      auditRecord(crypto.randomUUID(), clock.now(), SYSTEM, 'identity_provider.created', null),
    );
    const abandoned = sampleOAuthAttempt(provider.id);
    const redeemable = sampleOAuthAttempt(provider.id);
    for (const attempt of [abandoned, redeemable]) await repositories.oauthAttempts.create(attempt);
    await repositories.oauthAttempts.useState(
      redeemable.stateDigest,
      provider.id,
      redeemable.browserDigest!,
      clock.now(),
    );
    const code = {
      digest: 'code',
      expires: new Date(redeemable.expires.getTime() + 60_000),
      userId: 'u1',
      account: null,
    };
    await repositories.oauthAttempts.issueCode(redeemable.id, code);

    clock.advance(OAUTH_STATE_SECONDS + 1);
    await housekeeping().run();
    expect(repositories.oauthAttempts.rows.has(abandoned.id)).toBe(false);
    expect(repositories.oauthAttempts.rows.has(redeemable.id)).toBe(true);
    clock.advance(60);
    await housekeeping().run();
    expect(repositories.oauthAttempts.rows.size).toBe(0);
  });

  it("run() removes the OpenID engine's expired records, however many, and keeps those that last", async () => {
    const { clock, repositories, housekeeping } = housekeepingAt(OPENID_T0);
    const { openIdRecords } = repositories;
    const expired = Array.from({ length: 1_001 }, (_, index) =>
      sampleOpenIdRecord('AccessToken', { id: `at-${index}`, expires: openIdAt(60) }),
    );
    for (const record of expired) await openIdRecords.upsert(record);
    await openIdRecords.upsert(sampleOpenIdRecord('Grant', { id: 'grant-1', expires: null }));
    await openIdRecords.upsert(sampleOpenIdRecord('RefreshToken', { id: 'rt-1', expires: openIdAt(3600) }));

    clock.advance(61);
    await housekeeping().run();
    expect(await openIdRecords.deleteExpired(clock.now(), 10)).toBe(0);
    expect(await openIdRecords.find('Grant', 'grant-1', clock.now())).not.toBeNull();
    expect(await openIdRecords.find('RefreshToken', 'rt-1', clock.now())).not.toBeNull();
  });

  it('run() prunes audit events past AUDIT_RETENTION_DAYS and keeps what remains verifiable; 0 keeps them all', async () => {
    const { clock, repositories, housekeeping } = housekeepingAt(new Date('2026-01-01T00:00:00.000Z'));
    const { audit } = repositories;
    const record = () => auditRecord(crypto.randomUUID(), clock.now(), SYSTEM, 'signing_key.rotated', null);
    await audit.append(record());
    clock.advance(86_400 * 3);
    await audit.append(record());

    await housekeeping(0).run();
    expect((await audit.state()).cut.seq).toBe(0);
    await housekeeping(2).run();
    expect(await audit.state()).toMatchObject({ head: { seq: 2 }, cut: { seq: 1 } });
    expect((await new AuditService({ audit }).verify()).broken).toBeNull();
  });
});
