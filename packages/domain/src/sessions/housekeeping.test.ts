import { describe, expect, it } from '../testing/test-api.ts';
import {
  inMemoryRepositories,
  InMemoryRateCounterRepository,
  ManualClock,
  sampleSession,
  sampleUser,
} from '../testing/index.ts';
import { Housekeeping } from './housekeeping.ts';
import { SYSTEM } from '../audit/audit-event.ts';
import { auditRecord } from '../audit/audit-records.ts';
import { AuditService } from '../audit/audit-service.ts';
import { DEFAULT_THROTTLE_POLICY } from '../throttling/throttle.ts';

describe('Housekeeping', () => {
  it('run() forgets expired sessions and failures outside the longest throttling window', async () => {
    const clock = new ManualClock(new Date('2026-01-01T00:00:00.000Z'));
    const { users, sessions, attempts, audit } = inMemoryRepositories();
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
    const housekeeping = new Housekeeping({
      sessions,
      attempts,
      rateCounters: new InMemoryRateCounterRepository(),
      audit,
      clock,
      throttle: { perAccountAndAddress: { limit: 1, windowSeconds: 60 }, perAddress: { limit: 1, windowSeconds: 120 } },
      auditRetentionDays: 0,
    });

    clock.advance(90);
    await housekeeping.run();
    expect(await sessions.findSession('s1')).toBeNull();
    expect((await attempts.failuresSince('k', start)).count).toBe(1);

    clock.advance(31);
    await housekeeping.run();
    expect((await attempts.failuresSince('k', start)).count).toBe(0);
  });

  it('run() prunes audit events past AUDIT_RETENTION_DAYS and keeps what remains verifiable; 0 keeps them all', async () => {
    const clock = new ManualClock(new Date('2026-01-01T00:00:00.000Z'));
    const repositories = inMemoryRepositories();
    const { audit } = repositories;
    const housekeeping = (auditRetentionDays: number) =>
      new Housekeeping({ ...repositories, clock, throttle: DEFAULT_THROTTLE_POLICY, auditRetentionDays });
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
