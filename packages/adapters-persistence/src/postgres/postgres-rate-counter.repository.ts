import { lt, sql } from 'drizzle-orm';
import { addSeconds, type RateCount, type RateCounterRepository } from '@uas/domain';
import type { PostgresDb } from './postgres-db';
import { rateCounters } from './postgres-schema';

export class PostgresRateCounterRepository implements RateCounterRepository {
  constructor(private readonly db: PostgresDb) {}

  /**
   * One upsert: a concurrent hit of the same key waits for the first one's row lock, then counts
   * on top of it, so no hit is lost.
   */
  async hit(key: string, now: Date, windowSeconds: number): Promise<RateCount> {
    const open = sql`"rate_counters"."window_ends" > ${now.toISOString()}::timestamptz`;
    const [counted] = await this.db
      .insert(rateCounters)
      .values({ key, count: 1, windowEnds: addSeconds(now, windowSeconds) })
      .onConflictDoUpdate({
        target: rateCounters.key,
        set: {
          count: sql`case when ${open} then "rate_counters"."count" + 1 else 1 end`,
          windowEnds: sql`case when ${open} then "rate_counters"."window_ends" else excluded.window_ends end`,
        },
      })
      .returning({ count: rateCounters.count, windowEnds: rateCounters.windowEnds });
    return counted!;
  }

  async prune(before: Date): Promise<void> {
    await this.db.delete(rateCounters).where(lt(rateCounters.windowEnds, before));
  }
}
