import { sql } from 'drizzle-orm';
import type { OAuthAttempt, OAuthAttemptRepository, UpstreamAccount } from '@uas/domain';
import { oauthAttemptOf, oauthAttemptRow } from '../shared/identity-rows';
import {
  awaitingHandOff,
  expiredAttempts,
  redeemableCode,
  usableState,
  withoutCode,
} from '../shared/oauth-attempt-conditions';
import type { PostgresDb } from './postgres-db';
import { oauthAttempts } from './postgres-schema';

// Each step that spends a value is one UPDATE … WHERE <unused and unexpired> RETURNING: a second
// request with the same value waits on the first's row lock, then finds the row spent (READ
// COMMITTED checks the condition again on the row as committed), so exactly one changes it.
export class PostgresOAuthAttemptRepository implements OAuthAttemptRepository {
  constructor(private readonly db: PostgresDb) {}

  async create(attempt: OAuthAttempt): Promise<void> {
    await this.db.insert(oauthAttempts).values(oauthAttemptRow(attempt));
  }

  async handOff(handoffDigest: string, browserDigest: string, now: Date): Promise<OAuthAttempt | null> {
    const [row] = await this.db
      .update(oauthAttempts)
      .set({ browserDigest })
      .where(awaitingHandOff(oauthAttempts, handoffDigest, now))
      .returning();
    return row ? oauthAttemptOf(row) : null;
  }

  async useState(
    stateDigest: string,
    providerId: string,
    browserDigest: string,
    now: Date,
  ): Promise<OAuthAttempt | null> {
    const [row] = await this.db
      .update(oauthAttempts)
      .set({ stateUsed: now })
      .where(usableState(oauthAttempts, { digest: stateDigest, providerId, browserDigest }, now))
      .returning();
    return row ? oauthAttemptOf(row) : null;
  }

  async issueCode(
    id: string,
    code: { digest: string; expires: Date; userId: string | null; account: UpstreamAccount | null },
  ): Promise<void> {
    await this.db
      .update(oauthAttempts)
      .set({
        codeDigest: code.digest,
        codeExpires: code.expires,
        userId: code.userId ?? sql`${oauthAttempts.userId}`,
        account: code.account,
      })
      .where(withoutCode(oauthAttempts, id));
  }

  async redeemCode(codeDigest: string, now: Date): Promise<OAuthAttempt | null> {
    const [row] = await this.db
      .update(oauthAttempts)
      .set({ codeUsed: now })
      .where(redeemableCode(oauthAttempts, codeDigest, now))
      .returning();
    return row ? oauthAttemptOf(row) : null;
  }

  async deleteExpired(before: Date): Promise<number> {
    const deleted = await this.db
      .delete(oauthAttempts)
      .where(expiredAttempts(oauthAttempts, before))
      .returning({ id: oauthAttempts.id });
    return deleted.length;
  }
}
