import { getTableColumns } from 'drizzle-orm';
import type { ActionPurpose, NewMail, StoredActionToken } from '@uas/domain';
import { unusedActionTokensOf, usableActionToken } from '../shared/conditions';
import type { PostgresDb, PostgresTx } from './postgres-db';
import { insertMail } from './postgres-mail-queue';
import { actionTokens } from './postgres-schema';

/** What a use answers: everything but the digest, which never leaves the store. */
const { digest: _digest, ...answered } = getTableColumns(actionTokens);

/** Stores a token and queues the message that carries it, in the caller's transaction. */
export async function insertActionToken(tx: PostgresTx, token: StoredActionToken, mail: NewMail): Promise<void> {
  await tx.insert(actionTokens).values(token);
  await insertMail(tx, mail);
}

/** The use of a token: found by the unique digest index. */
export function useToken(
  db: PostgresDb | PostgresTx,
  purposes: readonly ActionPurpose[],
  digests: readonly string[],
  now: Date,
) {
  return db
    .update(actionTokens)
    .set({ used: now })
    .where(usableActionToken(actionTokens, purposes, digests, now))
    .returning(answered);
}

/** Voids the user's unused tokens (UserWrite.voidTokens), found by the user_id index. */
export function voidTokensOf(db: PostgresDb | PostgresTx, userId: string, at: Date) {
  return db.update(actionTokens).set({ used: at }).where(unusedActionTokensOf(actionTokens, userId));
}
