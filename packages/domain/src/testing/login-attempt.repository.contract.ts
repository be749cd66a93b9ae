import { describe, expect, it } from './test-api.ts';
import type { LoginAttemptRepository } from '../throttling/login-attempt.repository.ts';
import { useFreshRepositories, type OpenRepositories } from './contract-harness.ts';

const at = (minute: number) => new Date(Date.UTC(2026, 0, 1, 12, minute));
let sequence = 0;
const attemptId = () => `30000000-0000-4000-8000-${(++sequence).toString(16).padStart(12, '0')}`;

/** The behaviour every LoginAttemptRepository promises: counts per key within a window. */
export function describeLoginAttemptRepositoryContract(backend: string, open: OpenRepositories): void {
  describe(`LoginAttemptRepository contract (${backend})`, () => {
    let attempts: LoginAttemptRepository;
    useFreshRepositories(open, (repositories) => (attempts = repositories.attempts));

    it('counts failures of a key since a time, with the oldest one counted', async () => {
      await attempts.record(attemptId(), ['acct', 'addr'], at(1));
      await attempts.record(attemptId(), ['acct', 'addr'], at(5));
      await attempts.record(attemptId(), ['addr'], at(9));
      expect(await attempts.failuresSince('acct', at(0))).toEqual({ count: 2, oldest: at(1) });
      expect(await attempts.failuresSince('addr', at(2))).toEqual({ count: 2, oldest: at(5) });
      expect(await attempts.failuresSince('other', at(0))).toEqual({ count: 0, oldest: null });
    });

    it('failureCounts() counts the failures of one key or many since a time in one read, leaving out keys with none', async () => {
      await attempts.record(attemptId(), ['acct', 'addr'], at(1));
      await attempts.record(attemptId(), ['acct'], at(5));
      const withdrawn = attemptId();
      await attempts.record(withdrawn, ['acct'], at(6));
      await attempts.withdraw(withdrawn);
      await attempts.record(attemptId(), ['other'], at(5));
      expect(await attempts.failureCounts(['acct', 'addr', 'none'], at(0))).toEqual(
        new Map([
          ['acct', 2],
          ['addr', 1],
        ]),
      );
      expect(await attempts.failureCounts(['acct', 'addr'], at(2))).toEqual(new Map([['acct', 1]]));
      // One key (a single user's answer) may take another statement: the same counts.
      expect(await attempts.failureCounts(['acct'], at(0))).toEqual(new Map([['acct', 2]]));
      expect(await attempts.failureCounts(['acct'], at(5))).toEqual(new Map([['acct', 1]]));
      expect(await attempts.failureCounts(['acct'], at(6))).toEqual(new Map());
      expect(await attempts.failureCounts(['none'], at(0))).toEqual(new Map());
    });

    it('counts every one of many concurrent failures', async () => {
      await Promise.all(Array.from({ length: 25 }, () => attempts.record(attemptId(), ['busy'], at(3))));
      expect((await attempts.failuresSince('busy', at(0))).count).toBe(25);
      expect(await attempts.failureCounts(['busy'], at(0))).toEqual(new Map([['busy', 25]]));
    });

    it('clear() forgets one key only', async () => {
      await attempts.record(attemptId(), ['a', 'b'], at(1));
      await attempts.clear('a');
      expect((await attempts.failuresSince('a', at(0))).count).toBe(0);
      expect((await attempts.failuresSince('b', at(0))).count).toBe(1);
    });

    it('prune() forgets failures older than the cut-off', async () => {
      await attempts.record(attemptId(), ['k'], at(1));
      await attempts.record(attemptId(), ['k'], at(20));
      await attempts.prune(at(10));
      expect(await attempts.failuresSince('k', at(0))).toEqual({ count: 1, oldest: at(20) });
    });

    it('treats keys as exact strings, never as patterns', async () => {
      await attempts.record(attemptId(), ['user:a%@x.io|1.2.3.4'], at(1));
      expect((await attempts.failuresSince('user:a_@x.io|1.2.3.4', at(0))).count).toBe(0);
    });

    it('withdraw() takes one attempt back under every key it was recorded under, and only it', async () => {
      const kept = attemptId();
      const withdrawn = attemptId();
      await attempts.record(kept, ['acct', 'addr'], at(1));
      await attempts.record(withdrawn, ['acct', 'addr'], at(2));
      await attempts.withdraw(withdrawn);
      await attempts.withdraw(attemptId());
      expect(await attempts.failuresSince('acct', at(0))).toEqual({ count: 1, oldest: at(1) });
      expect(await attempts.failuresSince('addr', at(0))).toEqual({ count: 1, oldest: at(1) });
    });
  });
}
