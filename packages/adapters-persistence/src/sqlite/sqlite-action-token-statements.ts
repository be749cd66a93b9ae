import { getTableColumns } from 'drizzle-orm';
import type { ActionPurpose, NewMail, StoredActionToken } from '@uas/domain';
import { unusedActionTokensOf, usableActionToken } from '../shared/conditions';
import type { SqliteDb } from './sqlite-db';
import { insertMail } from './sqlite-mail-queue';
import { actionTokens } from './sqlite-schema';

/** What a use answers: everything but the digest, which never leaves the store. */
const { digest: _digest, ...answered } = getTableColumns(actionTokens);

/** Stores a token and queues the message that carries it, in the caller's transaction. */
export function insertActionToken(tx: SqliteDb, token: StoredActionToken, mail: NewMail): void {
  tx.insert(actionTokens).values(token).run();
  insertMail(tx, mail);
}

/** The use of a token: found by the unique digest index. */
export function useToken(db: SqliteDb, purposes: readonly ActionPurpose[], digests: readonly string[], now: Date) {
  return db
    .update(actionTokens)
    .set({ used: now })
    .where(usableActionToken(actionTokens, purposes, digests, now))
    .returning(answered);
}

/** Voids the user's unused tokens (UserWrite.voidTokens), found by the user_id index. */
export function voidTokensOf(db: SqliteDb, userId: string, at: Date) {
  return db.update(actionTokens).set({ used: at }).where(unusedActionTokensOf(actionTokens, userId));
}
