import { eq, lt, sql } from 'drizzle-orm';
import type { SignInChallenge, SignInChallengeRepository } from '@uas/domain';
import { completable, heldSince, signInChallengeOf, signInChallengeRow } from '../shared/sign-in-challenge-rows';
import { preparedOnUse } from './prepared-on-use';
import type { SqliteDb } from './sqlite-db';
import { unsyncedWrite } from './sqlite-unsynced-write';
import { signInChallenges } from './sqlite-schema';

/**
 * Each count and completion is one UPDATE, so racing answers of one challenge take turns. The
 * statements of a second step are prepared once: building them per call cost as much as running
 * them. A placeholder's value reaches the driver as it is, so times go as epoch milliseconds.
 * Completions and failures are not flushed on their own (see unsyncedWrite): the session a
 * completion leads to is a FULL commit after it, which flushes it too, so a power cut can only
 * undo a completion that opened no session (and a failure, which then counts a little less).
 */
export class SqliteSignInChallengeRepository implements SignInChallengeRepository {
  private readonly byId = preparedOnUse(() =>
    this.db
      .select()
      .from(signInChallenges)
      .where(eq(signInChallenges.id, sql.placeholder('id')))
      .prepare(),
  );
  private readonly failure = preparedOnUse(() =>
    this.db
      .update(signInChallenges)
      .set({ failures: sql`${signInChallenges.failures} + 1`, completed: null })
      .where(heldSince(signInChallenges, sql.placeholder('id'), sql.placeholder('completed')))
      .returning({ failures: signInChallenges.failures })
      .prepare(),
  );
  private readonly completion = preparedOnUse(() =>
    this.db
      .update(signInChallenges)
      .set({ completed: sql`${sql.placeholder('at')}` })
      .where(
        completable(signInChallenges, sql.placeholder('id'), sql.placeholder('at'), sql.placeholder('maxFailures')),
      )
      .prepare(),
  );

  constructor(private readonly db: SqliteDb) {}

  async create(challenge: SignInChallenge): Promise<void> {
    this.db.insert(signInChallenges).values(signInChallengeRow(challenge)).run();
  }

  async find(id: string): Promise<SignInChallenge | null> {
    const row = this.byId().get({ id });
    return row ? signInChallengeOf(row) : null;
  }

  async fail(id: string, completed: Date): Promise<number> {
    return unsyncedWrite(this.db, () => this.failure().get({ id, completed: completed.getTime() })?.failures ?? 0);
  }

  async complete(id: string, at: Date, maxFailures: number): Promise<boolean> {
    return unsyncedWrite(this.db, () => this.completion().run({ id, at: at.getTime(), maxFailures }).changes > 0);
  }

  async prune(before: Date): Promise<void> {
    this.db.delete(signInChallenges).where(lt(signInChallenges.expires, before)).run();
  }
}
