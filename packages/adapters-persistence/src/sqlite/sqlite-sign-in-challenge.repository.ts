import { eq, lt, sql } from 'drizzle-orm';
import type { SignInChallenge, SignInChallengeRepository } from '@uas/domain';
import { completable, signInChallengeOf, signInChallengeRow } from '../shared/sign-in-challenge-rows';
import type { SqliteDb } from './sqlite-db';
import { signInChallenges } from './sqlite-schema';

/** Each count and completion is one UPDATE, so racing answers of one challenge take turns. */
export class SqliteSignInChallengeRepository implements SignInChallengeRepository {
  constructor(private readonly db: SqliteDb) {}

  async create(challenge: SignInChallenge): Promise<void> {
    this.db.insert(signInChallenges).values(signInChallengeRow(challenge)).run();
  }

  async find(id: string): Promise<SignInChallenge | null> {
    const row = this.db.select().from(signInChallenges).where(eq(signInChallenges.id, id)).get();
    return row ? signInChallengeOf(row) : null;
  }

  async fail(id: string): Promise<number> {
    const counted = this.db
      .update(signInChallenges)
      .set({ failures: sql`${signInChallenges.failures} + 1` })
      .where(eq(signInChallenges.id, id))
      .returning({ failures: signInChallenges.failures })
      .get();
    return counted?.failures ?? 0;
  }

  async complete(id: string, at: Date, maxFailures: number): Promise<boolean> {
    return (
      this.db
        .update(signInChallenges)
        .set({ completed: at })
        .where(completable(signInChallenges, id, at, maxFailures))
        .run().changes > 0
    );
  }

  async prune(before: Date): Promise<void> {
    this.db.delete(signInChallenges).where(lt(signInChallenges.expires, before)).run();
  }
}
