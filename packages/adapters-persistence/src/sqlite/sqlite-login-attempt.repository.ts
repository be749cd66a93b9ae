import { and, count, eq, gte, lt, min, sql } from 'drizzle-orm';
import type { FailureStats, LoginAttemptRepository } from '@uas/domain';
import { failuresOf } from '../shared/conditions';
import { preparedOnUse } from './prepared-on-use';
import { HeldWhileUnchanged } from './sqlite-change-stamp';
import type { SqliteDb } from './sqlite-db';
import { unsyncedWrite } from './sqlite-unsynced-write';
import { loginFailures } from './sqlite-schema';

/**
 * Failures per key since `since` (epoch milliseconds), the keys given as one JSON array (`keys`)
 * so that the statement is the same for any number of them: a range of the (key, at) index per
 * key. Exported for the query plan tests.
 */
export const selectFailureCounts = (db: SqliteDb) =>
  db
    .select({ key: loginFailures.key, count: count() })
    .from(loginFailures)
    .where(
      and(
        sql`${loginFailures.key} in (select value from json_each(${sql.placeholder('keys')}))`,
        gte(loginFailures.at, sql.placeholder('since')),
      ),
    )
    .groupBy(loginFailures.key);

/** Sets of keys remembered to have had no failures, at most (a page of keys each). */
const NONE_HELD = 64;

/**
 * Attempts are recorded, withdrawn and cleared without a flush of their own (see unsyncedWrite),
 * as the rate counters are: a power cut may forget the last few, and a limit counts a little less.
 */
export class SqliteLoginAttemptRepository implements LoginAttemptRepository {
  // Every page of the user list counts its users' failures: prepared once, not built per call.
  private readonly failureCountsOf = preparedOnUse(() => selectFailureCounts(this.db).prepare());
  // Every second step records an attempt under one key, counts it and takes it back (or clears
  // the key): prepared once, not built per call.
  private readonly recordOne = preparedOnUse(() =>
    this.db
      .insert(loginFailures)
      .values({ attempt: sql.placeholder('attempt'), key: sql.placeholder('key'), at: sql.placeholder('at') })
      .prepare(),
  );
  private readonly withdrawal = preparedOnUse(() =>
    this.db
      .delete(loginFailures)
      .where(eq(loginFailures.attempt, sql.placeholder('attempt')))
      .prepare(),
  );
  private readonly statsOf = preparedOnUse(() =>
    this.db
      .select({ count: count(), oldest: min(loginFailures.at) })
      .from(loginFailures)
      .where(failuresOf(loginFailures, sql.placeholder('key'), sql.placeholder('since')))
      .prepare(),
  );
  private readonly clearing = preparedOnUse(() =>
    this.db
      .delete(loginFailures)
      .where(eq(loginFailures.key, sql.placeholder('key')))
      .prepare(),
  );
  /**
   * Keys (a JSON array) found with no failures at or after a time (epoch milliseconds), since the
   * file last changed: nor have they any at or after a later time, until something is written.
   */
  private readonly noneSince: HeldWhileUnchanged<number>;

  constructor(private readonly db: SqliteDb) {
    this.noneSince = new HeldWhileUnchanged(db, NONE_HELD);
  }

  async record(id: string, keys: readonly string[], at: Date): Promise<void> {
    if (keys.length === 0) return;
    if (keys.length === 1) {
      // An insert's placeholders go through the column's mapping (a Date); a WHERE's do not.
      unsyncedWrite(this.db, () => this.recordOne().run({ attempt: id, key: keys[0], at }));
      return;
    }
    unsyncedWrite(this.db, () =>
      this.db
        .insert(loginFailures)
        .values(keys.map((key) => ({ attempt: id, key, at })))
        .run(),
    );
  }

  async withdraw(id: string): Promise<void> {
    unsyncedWrite(this.db, () => this.withdrawal().run({ attempt: id }));
  }

  async failuresSince(key: string, since: Date): Promise<FailureStats> {
    const stats = this.statsOf().get({ key, since: since.getTime() });
    return stats ?? { count: 0, oldest: null };
  }

  async failureCounts(keys: readonly string[], since: Date): Promise<Map<string, number>> {
    if (keys.length === 0) return new Map();
    if (keys.length === 1) {
      // One user's (a PATCH's answer, a user read): one range of the (key, at) index, no dearer
      // than the stamp held results need, which every write in between moves anyway.
      const key = keys[0]!;
      const { count } = await this.failuresSince(key, since);
      return count > 0 ? new Map([[key, count]]) : new Map();
    }
    const noneSince = this.noneSince.now();
    const listed = JSON.stringify(keys);
    const none = noneSince.get(listed);
    if (none !== undefined && none <= since.getTime()) return new Map();
    const rows = this.failureCountsOf().all({ keys: listed, since: since.getTime() });
    if (rows.length === 0) noneSince.add(listed, since.getTime());
    return new Map(rows.map((row) => [row.key, row.count]));
  }

  async clear(key: string): Promise<void> {
    unsyncedWrite(this.db, () => this.clearing().run({ key }));
  }

  async prune(before: Date): Promise<void> {
    this.db.delete(loginFailures).where(lt(loginFailures.at, before)).run();
  }
}
