import { lt, sql } from 'drizzle-orm';
import { addSeconds, type RateCount, type RateCounterRepository } from '@uas/domain';
import type { SqliteDb } from './sqlite-db';
import { rateCounters } from './sqlite-schema';
import { unsyncedWrite } from './sqlite-unsynced-write';
import { preparedOnUse } from './prepared-on-use';

const open = sql`"rate_counters"."window_ends" > ${sql.placeholder('now')}`;

/** One upsert: a new window, or one more hit in the open one; answers the count and the window's end. */
const upsertHit = (db: SqliteDb) =>
  db
    .insert(rateCounters)
    .values({ key: sql.placeholder('key'), count: 1, windowEnds: sql.placeholder('windowEnds') })
    .onConflictDoUpdate({
      target: rateCounters.key,
      set: {
        count: sql`case when ${open} then "rate_counters"."count" + 1 else 1 end`,
        windowEnds: sql`case when ${open} then "rate_counters"."window_ends" else excluded.window_ends end`,
      },
    })
    .returning({ count: rateCounters.count, windowEnds: rateCounters.windowEnds })
    .prepare();

export class SqliteRateCounterRepository implements RateCounterRepository {
  // Every sending endpoint and every admitted message hits a counter or two.
  private readonly upsert = preparedOnUse(() => upsertHit(this.db));

  constructor(private readonly db: SqliteDb) {}

  /**
   * One upsert: SQLite runs one writer at a time, so no hit is lost. Not flushed on its own (see
   * unsyncedWrite): a power loss may forget the last hits, and a limit counts a little less.
   */
  async hit(key: string, now: Date, windowSeconds: number): Promise<RateCount> {
    return unsyncedWrite(
      this.db,
      () => this.upsert().get({ key, now: now.getTime(), windowEnds: addSeconds(now, windowSeconds) })!,
    );
  }

  async prune(before: Date): Promise<void> {
    this.db.delete(rateCounters).where(lt(rateCounters.windowEnds, before)).run();
  }
}
