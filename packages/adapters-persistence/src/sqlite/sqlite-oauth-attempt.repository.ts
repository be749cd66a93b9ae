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
import type { SqliteDb } from './sqlite-db';
import { oauthAttempts } from './sqlite-schema';

// Each step that spends a value is one UPDATE … WHERE <unused and unexpired> RETURNING: it runs
// under the write lock, so of two requests with the same value exactly one changes the row.
export class SqliteOAuthAttemptRepository implements OAuthAttemptRepository {
  constructor(private readonly db: SqliteDb) {}

  async create(attempt: OAuthAttempt): Promise<void> {
    this.db.insert(oauthAttempts).values(oauthAttemptRow(attempt)).run();
  }

  async handOff(handoffDigest: string, browserDigest: string, now: Date): Promise<OAuthAttempt | null> {
    const row = this.db
      .update(oauthAttempts)
      .set({ browserDigest })
      .where(awaitingHandOff(oauthAttempts, handoffDigest, now))
      .returning()
      .get();
    return row ? oauthAttemptOf(row) : null;
  }

  async useState(
    stateDigest: string,
    providerId: string,
    browserDigest: string,
    now: Date,
  ): Promise<OAuthAttempt | null> {
    const row = this.db
      .update(oauthAttempts)
      .set({ stateUsed: now })
      .where(usableState(oauthAttempts, { digest: stateDigest, providerId, browserDigest }, now))
      .returning()
      .get();
    return row ? oauthAttemptOf(row) : null;
  }

  async issueCode(
    id: string,
    code: { digest: string; expires: Date; userId: string | null; account: UpstreamAccount | null },
  ): Promise<void> {
    this.db
      .update(oauthAttempts)
      .set({
        codeDigest: code.digest,
        codeExpires: code.expires,
        userId: code.userId ?? sql`${oauthAttempts.userId}`,
        account: code.account,
      })
      .where(withoutCode(oauthAttempts, id))
      .run();
  }

  async redeemCode(codeDigest: string, now: Date): Promise<OAuthAttempt | null> {
    const row = this.db
      .update(oauthAttempts)
      .set({ codeUsed: now })
      .where(redeemableCode(oauthAttempts, codeDigest, now))
      .returning()
      .get();
    return row ? oauthAttemptOf(row) : null;
  }

  async deleteExpired(before: Date): Promise<number> {
    return this.db.delete(oauthAttempts).where(expiredAttempts(oauthAttempts, before)).run().changes;
  }
}
