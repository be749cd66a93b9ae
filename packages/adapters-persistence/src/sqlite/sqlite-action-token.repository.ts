import { getTableColumns } from 'drizzle-orm';
import type {
  ActionPurpose,
  ActionToken,
  ActionTokenRepository,
  AuditRecord,
  NewMail,
  StoredActionToken,
} from '@uas/domain';
import { appendAuditEvent } from './sqlite-audit-trail';
import { unusedActionTokensOf, usableActionToken } from '../shared/conditions';
import type { SqliteDb } from './sqlite-db';
import { insertMail } from './sqlite-mail-queue';
import { actionTokens } from './sqlite-schema';

/** What a use answers: everything but the digest, which never leaves the store. */
const { digest: _digest, ...answered } = getTableColumns(actionTokens);

export class SqliteActionTokenRepository implements ActionTokenRepository {
  constructor(private readonly db: SqliteDb) {}

  async issue(token: StoredActionToken, mail: NewMail | null, audit?: AuditRecord): Promise<void> {
    this.db.transaction(
      (tx) => {
        tx.insert(actionTokens).values(token).run();
        if (mail) insertMail(tx, mail);
        if (audit) appendAuditEvent(tx, audit);
      },
      { behavior: 'immediate' },
    );
  }

  async find(purpose: ActionPurpose, digests: readonly string[], now: Date): Promise<ActionToken | null> {
    if (digests.length === 0) return null;
    return (
      this.db
        .select(answered)
        .from(actionTokens)
        .where(usableActionToken(actionTokens, purpose, digests, now))
        .get() ?? null
    );
  }

  /** One UPDATE … RETURNING: SQLite runs one writer at a time, so one use alone changes the row. */
  async consume(purpose: ActionPurpose, digests: readonly string[], now: Date): Promise<ActionToken | null> {
    if (digests.length === 0) return null;
    return useToken(this.db, purpose, digests, now).get() ?? null;
  }
}

/** The use of a token: found by the unique digest index. */
export function useToken(db: SqliteDb, purpose: ActionPurpose, digests: readonly string[], now: Date) {
  return db
    .update(actionTokens)
    .set({ used: now })
    .where(usableActionToken(actionTokens, purpose, digests, now))
    .returning(answered);
}

/** Voids the user's unused tokens (UserWrite.voidTokens), found by the user_id index. */
export function voidTokensOf(db: SqliteDb, userId: string, at: Date) {
  return db.update(actionTokens).set({ used: at }).where(unusedActionTokensOf(actionTokens, userId));
}
