import type { OAuthAttempt, UpstreamAccount } from '../identities/oauth-attempt.ts';
import type { OAuthAttemptRepository } from '../identities/oauth-attempt.repository.ts';
import type { DroppedWithProvider } from './in-memory-identity-providers.ts';

const before = (at: Date | null, now: Date) => at !== null && at.getTime() < now.getTime();
const after = (at: Date | null, now: Date) => at !== null && at.getTime() > now.getTime();

/**
 * OAuth attempts in memory. Each step finds, checks and spends its value without an `await` in
 * between, which is the one `UPDATE … RETURNING` the real stores make.
 */
export class InMemoryOAuthAttemptRepository implements OAuthAttemptRepository, DroppedWithProvider {
  readonly rows = new Map<string, OAuthAttempt>();

  async create(attempt: OAuthAttempt): Promise<void> {
    this.rows.set(attempt.id, structuredClone(attempt));
  }

  async handOff(handoffDigest: string, browserDigest: string, now: Date): Promise<OAuthAttempt | null> {
    return this.spend(
      (row) =>
        row.handoffDigest === handoffDigest &&
        row.browserDigest === null &&
        row.stateUsed === null &&
        after(row.expires, now),
      { browserDigest },
    );
  }

  async useState(
    stateDigest: string,
    providerId: string,
    browserDigest: string,
    now: Date,
  ): Promise<OAuthAttempt | null> {
    return this.spend(
      (row) =>
        row.stateDigest === stateDigest &&
        row.providerId === providerId &&
        row.browserDigest === browserDigest &&
        row.stateUsed === null &&
        after(row.expires, now),
      { stateUsed: now },
    );
  }

  async issueCode(
    id: string,
    code: { digest: string; expires: Date; userId: string | null; account: UpstreamAccount | null },
  ): Promise<void> {
    const row = this.rows.get(id);
    if (!row || row.codeDigest !== null) return;
    this.rows.set(id, {
      ...row,
      codeDigest: code.digest,
      codeExpires: code.expires,
      userId: code.userId ?? row.userId,
      account: code.account && { ...code.account },
    });
  }

  async redeemCode(codeDigest: string, now: Date): Promise<OAuthAttempt | null> {
    return this.spend((row) => row.codeDigest === codeDigest && row.codeUsed === null && after(row.codeExpires, now), {
      codeUsed: now,
    });
  }

  async deleteExpired(cutoff: Date): Promise<number> {
    let deleted = 0;
    for (const row of [...this.rows.values()]) {
      if (before(row.expires, cutoff) && (row.codeExpires === null || before(row.codeExpires, cutoff))) {
        this.rows.delete(row.id);
        deleted += 1;
      }
    }
    return deleted;
  }

  dropProvider(providerId: string): void {
    for (const row of [...this.rows.values()]) if (row.providerId === providerId) this.rows.delete(row.id);
  }

  /** Finds the one attempt `matches` and writes `change` to it, at once. */
  private spend(matches: (row: OAuthAttempt) => boolean, change: Partial<OAuthAttempt>): OAuthAttempt | null {
    const row = [...this.rows.values()].find(matches);
    if (!row) return null;
    const stored = { ...row, ...change };
    this.rows.set(row.id, stored);
    return structuredClone(stored);
  }
}
