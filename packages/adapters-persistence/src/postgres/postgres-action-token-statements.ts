import { getTableColumns } from 'drizzle-orm';
import type { ActionPurpose, NewMail, StoredActionToken } from '@uas/domain';
import { unusedActionTokensOf, usableActionToken } from '../shared/conditions';
import type { PostgresDb, PostgresTx } from './postgres-db';
import { insertMail } from './postgres-mail-queue';
import { actionTokens } from './postgres-schema';

const { digest: _digest, ...answered } = getTableColumns(actionTokens);
/** What a use or a look-up answers: everything but the digest, which never leaves the store. */
export const answeredColumns = answered;

/** Stores a token and queues the message that carries it (if any), in the caller's transaction. */
export async function insertActionToken(tx: PostgresTx, token: StoredActionToken, mail: NewMail | null): Promise<void> {
  await tx.insert(actionTokens).values(token);
  if (mail) await insertMail(tx, mail);
}

/** The use of a token of `purpose` (or of one of them): found by the unique digest index. */
export function useToken(
  db: PostgresDb | PostgresTx,
  purpose: ActionPurpose | readonly ActionPurpose[],
  digests: readonly string[],
  now: Date,
) {
  return db
    .update(actionTokens)
    .set({ used: now })
    .where(usableActionToken(actionTokens, purpose, digests, now))
    .returning(answeredColumns);
}

/** Voids the user's unused tokens (UserWrite.voidTokens), found by the user_id index. */
export function voidTokensOf(db: PostgresDb | PostgresTx, userId: string, at: Date) {
  return db.update(actionTokens).set({ used: at }).where(unusedActionTokensOf(actionTokens, userId));
}
