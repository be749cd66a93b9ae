import { and, eq, gt, isNull, lt, or, sql } from 'drizzle-orm';
import type { OAuthAttempt, OAuthAttemptRepository, UpstreamAccount } from '@uas/domain';
import { oauthAttemptOf, oauthAttemptRow } from '../shared/identity-rows';
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
      .where(
        and(
          eq(oauthAttempts.handoffDigest, handoffDigest),
          isNull(oauthAttempts.browserDigest),
          isNull(oauthAttempts.stateUsed),
          gt(oauthAttempts.expires, now),
        ),
      )
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
      .where(
        and(
          eq(oauthAttempts.stateDigest, stateDigest),
          eq(oauthAttempts.providerId, providerId),
          eq(oauthAttempts.browserDigest, browserDigest),
          isNull(oauthAttempts.stateUsed),
          gt(oauthAttempts.expires, now),
        ),
      )
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
      .where(and(eq(oauthAttempts.id, id), isNull(oauthAttempts.codeDigest)));
  }

  async redeemCode(codeDigest: string, now: Date): Promise<OAuthAttempt | null> {
    const [row] = await this.db
      .update(oauthAttempts)
      .set({ codeUsed: now })
      .where(
        and(
          eq(oauthAttempts.codeDigest, codeDigest),
          isNull(oauthAttempts.codeUsed),
          gt(oauthAttempts.codeExpires, now),
        ),
      )
      .returning();
    return row ? oauthAttemptOf(row) : null;
  }

  async deleteExpired(before: Date): Promise<number> {
    const deleted = await this.db
      .delete(oauthAttempts)
      .where(
        and(
          lt(oauthAttempts.expires, before),
          or(isNull(oauthAttempts.codeExpires), lt(oauthAttempts.codeExpires, before)),
        ),
      )
      .returning({ id: oauthAttempts.id });
    return deleted.length;
  }
}
