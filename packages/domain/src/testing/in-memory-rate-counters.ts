import { addSeconds } from '../shared/clock.ts';
import type { RateCount, RateCounterRepository } from '../throttling/rate-counter.repository.ts';

/** Hit counters in memory: each hit runs to its end before another starts, as the upsert does. */
export class InMemoryRateCounterRepository implements RateCounterRepository {
  private readonly counters = new Map<string, RateCount>();

  async hit(key: string, now: Date, windowSeconds: number): Promise<RateCount> {
    const current = this.counters.get(key);
    const next =
      current && current.windowEnds > now
        ? { count: current.count + 1, windowEnds: current.windowEnds }
        : { count: 1, windowEnds: addSeconds(now, windowSeconds) };
    this.counters.set(key, next);
    return { ...next };
  }

  async prune(before: Date): Promise<void> {
    for (const [key, counter] of this.counters) if (counter.windowEnds < before) this.counters.delete(key);
  }
}
