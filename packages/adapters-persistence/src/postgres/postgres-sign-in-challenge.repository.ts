import { eq, lt, sql } from 'drizzle-orm';
import type { SignInChallenge, SignInChallengeRepository } from '@uas/domain';
import { completable, heldSince, signInChallengeOf, signInChallengeRow } from '../shared/sign-in-challenge-rows';
import type { PostgresDb } from './postgres-db';
import { signInChallenges } from './postgres-schema';

/**
 * Each count and completion is one UPDATE: a racing one waits for the row, then re-checks its
 * condition against what the first wrote, so one completion wins and no failure is lost.
 */
export class PostgresSignInChallengeRepository implements SignInChallengeRepository {
  constructor(private readonly db: PostgresDb) {}

  async create(challenge: SignInChallenge): Promise<void> {
    await this.db.insert(signInChallenges).values(signInChallengeRow(challenge));
  }

  async find(id: string): Promise<SignInChallenge | null> {
    const [row] = await this.db.select().from(signInChallenges).where(eq(signInChallenges.id, id));
    return row ? signInChallengeOf(row) : null;
  }

  async fail(id: string, completed: Date): Promise<number> {
    const [counted] = await this.db
      .update(signInChallenges)
      .set({ failures: sql`${signInChallenges.failures} + 1`, completed: null })
      .where(heldSince(signInChallenges, id, completed))
      .returning({ failures: signInChallenges.failures });
    return counted?.failures ?? 0;
  }

  async complete(id: string, at: Date, maxFailures: number): Promise<boolean> {
    const completed = await this.db
      .update(signInChallenges)
      .set({ completed: at })
      .where(completable(signInChallenges, id, at, maxFailures))
      .returning({ id: signInChallenges.id });
    return completed.length > 0;
  }

  async prune(before: Date): Promise<void> {
    await this.db.delete(signInChallenges).where(lt(signInChallenges.expires, before));
  }
}
