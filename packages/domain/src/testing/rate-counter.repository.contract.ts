import { describe, expect, it } from './test-api.ts';
import type { RateCounterRepository } from '../throttling/rate-counter.repository.ts';
import { useFreshRepositories, type OpenRepositories } from './contract-harness.ts';

const T0 = new Date('2026-01-01T12:00:00.000Z');
const at = (seconds: number) => new Date(T0.getTime() + seconds * 1000);
/** Concurrent hits of one key, half on each instance: enough for a lost update to show. */
const HITS = 40;

/** The behaviour every RateCounterRepository promises: fixed windows, no hit lost. */
export function describeRateCounterRepositoryContract(backend: string, open: OpenRepositories): void {
  describe(`RateCounterRepository contract (${backend})`, () => {
    let counters: RateCounterRepository;
    let other: RateCounterRepository;
    useFreshRepositories(open, (repositories, another) => {
      counters = repositories.rateCounters;
      other = another.rateCounters;
    });

    it('counts hits of a key within the window its first hit opened, apart from other keys', async () => {
      expect(await counters.hit('a', at(0), 60)).toEqual({ count: 1, windowEnds: at(60) });
      expect(await counters.hit('a', at(30), 60)).toEqual({ count: 2, windowEnds: at(60) });
      expect(await counters.hit('b', at(30), 60)).toEqual({ count: 1, windowEnds: at(90) });
      expect(await counters.hit('a', at(59.999), 60)).toEqual({ count: 3, windowEnds: at(60) });
    });

    it('opens a new window with the first hit after the last one ended', async () => {
      await counters.hit('a', at(0), 60);
      await counters.hit('a', at(10), 60);
      expect(await counters.hit('a', at(60), 60)).toEqual({ count: 1, windowEnds: at(120) });
      expect(await counters.hit('a', at(61), 60)).toEqual({ count: 2, windowEnds: at(120) });
    });

    it(`counts each of ${HITS} concurrent hits of one key on two instances exactly once`, async () => {
      const counts = await Promise.all(
        Array.from({ length: HITS }, (_, hit) => (hit % 2 === 0 ? counters : other).hit('burst', at(1), 60)),
      );
      expect(counts.map(({ count }) => count).sort((x, y) => x - y)).toEqual(
        Array.from({ length: HITS }, (_, index) => index + 1),
      );
      expect(new Set(counts.map(({ windowEnds }) => windowEnds.getTime()))).toEqual(new Set([at(61).getTime()]));
    });

    it('prune() forgets counters whose window ended, and keeps the others counting', async () => {
      await counters.hit('old', at(0), 60);
      await counters.hit('live', at(50), 60);
      await counters.prune(at(100));
      expect(await counters.hit('live', at(100), 60)).toEqual({ count: 2, windowEnds: at(110) });
      // Pruned or not, an ended window counts afresh: what prune() drops must not change answers.
      expect(await counters.hit('old', at(100), 60)).toEqual({ count: 1, windowEnds: at(160) });
    });
  });
}
