import { and, eq, gt, isNull, lt, or, sql } from 'drizzle-orm';
import type { OAuthAttempt, OAuthAttemptRepository, UpstreamAccount } from '@uas/domain';
import { oauthAttemptOf, oauthAttemptRow } from '../shared/identity-rows';
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
      .where(
        and(
          eq(oauthAttempts.handoffDigest, handoffDigest),
          isNull(oauthAttempts.browserDigest),
          isNull(oauthAttempts.stateUsed),
          gt(oauthAttempts.expires, now),
        ),
      )
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
      .where(
        and(
          eq(oauthAttempts.stateDigest, stateDigest),
          eq(oauthAttempts.providerId, providerId),
          eq(oauthAttempts.browserDigest, browserDigest),
          isNull(oauthAttempts.stateUsed),
          gt(oauthAttempts.expires, now),
        ),
      )
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
      .where(and(eq(oauthAttempts.id, id), isNull(oauthAttempts.codeDigest)))
      .run();
  }

  async redeemCode(codeDigest: string, now: Date): Promise<OAuthAttempt | null> {
    const row = this.db
      .update(oauthAttempts)
      .set({ codeUsed: now })
      .where(
        and(
          eq(oauthAttempts.codeDigest, codeDigest),
          isNull(oauthAttempts.codeUsed),
          gt(oauthAttempts.codeExpires, now),
        ),
      )
      .returning()
      .get();
    return row ? oauthAttemptOf(row) : null;
  }

  async deleteExpired(before: Date): Promise<number> {
    return this.db
      .delete(oauthAttempts)
      .where(
        and(
          lt(oauthAttempts.expires, before),
          or(isNull(oauthAttempts.codeExpires), lt(oauthAttempts.codeExpires, before)),
        ),
      )
      .run().changes;
  }
}
