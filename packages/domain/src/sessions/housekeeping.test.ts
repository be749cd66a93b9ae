import { describe, expect, it } from '../testing/test-api.ts';
import { inMemoryRepositories, ManualClock, sampleSession, sampleUser } from '../testing/index.ts';
import { Housekeeping } from './housekeeping.ts';

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
});
