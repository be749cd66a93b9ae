import { getTableColumns } from 'drizzle-orm';
import type {
  ActionPurpose,
  ActionToken,
  ActionTokenRepository,
  AuditRecord,
  NewMail,
  StoredActionToken,
} from '@uas/domain';
import { appendAuditEvent } from './postgres-audit-trail';
import { unusedActionTokensOf, usableActionToken } from '../shared/conditions';
import type { PostgresDb, PostgresTx } from './postgres-db';
import { insertMail } from './postgres-mail-queue';
import { actionTokens } from './postgres-schema';

/** What a use answers: everything but the digest, which never leaves the store. */
const { digest: _digest, ...answered } = getTableColumns(actionTokens);

export class PostgresActionTokenRepository implements ActionTokenRepository {
  constructor(private readonly db: PostgresDb) {}

  async issue(token: StoredActionToken, mail: NewMail | null, audit?: AuditRecord): Promise<void> {
    await this.db.transaction(async (tx) => {
      await tx.insert(actionTokens).values(token);
      if (mail) await insertMail(tx, mail);
      if (audit) await appendAuditEvent(tx, audit);
    });
  }

  async find(purpose: ActionPurpose, digests: readonly string[], now: Date): Promise<ActionToken | null> {
    if (digests.length === 0) return null;
    const [found] = await this.db
      .select(answered)
      .from(actionTokens)
      .where(usableActionToken(actionTokens, purpose, digests, now));
    return found ?? null;
  }

  /**
   * One UPDATE … RETURNING: a concurrent use waits for the first one's row lock, then finds
   * `used` set and changes nothing, so exactly one use answers the token.
   */
  async consume(purpose: ActionPurpose, digests: readonly string[], now: Date): Promise<ActionToken | null> {
    if (digests.length === 0) return null;
    const [used] = await useToken(this.db, purpose, digests, now);
    return used ?? null;
  }
}

/** The use of a token: found by the unique digest index. */
export function useToken(db: PostgresDb | PostgresTx, purpose: ActionPurpose, digests: readonly string[], now: Date) {
  return db
    .update(actionTokens)
    .set({ used: now })
    .where(usableActionToken(actionTokens, purpose, digests, now))
    .returning(answered);
}

/** Voids the user's unused tokens (UserWrite.voidTokens), found by the user_id index. */
export function voidTokensOf(db: PostgresDb | PostgresTx, userId: string, at: Date) {
  return db.update(actionTokens).set({ used: at }).where(unusedActionTokensOf(actionTokens, userId));
}
