import { lt, sql } from 'drizzle-orm';
import { addSeconds, type RateCount, type RateCounterRepository } from '@uas/domain';
import type { SqliteDb } from './sqlite-db';
import { rateCounters } from './sqlite-schema';
import { unsyncedWrite } from './sqlite-unsynced-write';

export class SqliteRateCounterRepository implements RateCounterRepository {
  constructor(private readonly db: SqliteDb) {}

  /**
   * One upsert: SQLite runs one writer at a time, so no hit is lost. Not flushed on its own (see
   * unsyncedWrite): a power loss may forget the last hits, and a limit counts a little less.
   */
  async hit(key: string, now: Date, windowSeconds: number): Promise<RateCount> {
    const open = sql`"rate_counters"."window_ends" > ${now.getTime()}`;
    return unsyncedWrite(
      this.db,
      () =>
        this.db
          .insert(rateCounters)
          .values({ key, count: 1, windowEnds: addSeconds(now, windowSeconds) })
          .onConflictDoUpdate({
            target: rateCounters.key,
            set: {
              count: sql`case when ${open} then "rate_counters"."count" + 1 else 1 end`,
              windowEnds: sql`case when ${open} then "rate_counters"."window_ends" else excluded.window_ends end`,
            },
          })
          .returning({ count: rateCounters.count, windowEnds: rateCounters.windowEnds })
          .get()!,
    );
  }

  async prune(before: Date): Promise<void> {
    this.db.delete(rateCounters).where(lt(rateCounters.windowEnds, before)).run();
  }
}
