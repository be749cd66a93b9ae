import { eq } from 'drizzle-orm';
import type { User, UserWrite } from '@uas/domain';
import { unvouchedIdentityOfUser } from '../shared/identity-conditions';
import { voidTokensOf } from './postgres-action-token-statements';
import { appendAuditEvent } from './postgres-audit-trail';
import type { PostgresTx } from './postgres-db';
import { insertMail } from './postgres-mail-queue';
import { externalIdentities, users } from './postgres-schema';
import { endSubjectSessions } from './postgres-subject-sessions';

/**
 * Writes what a change decided, inside the caller's transaction (which holds the user's row): the
 * user, and whatever the change implies. Also what a token's redeem writes.
 */
export async function writeUser(
  tx: PostgresTx,
  id: string,
  { user, endSessions, audit, voidTokens, mail, unlinkUnvouched }: UserWrite,
): Promise<User | null> {
  const { id: _, ...columns } = user;
  // The event is a new row under a key of its own, so it waits for no lock and its place among the
  // statements does not matter: sent with the update, the two cost one round trip, not two, while
  // the transaction holds its pool connection (prepared statements only: the driver does not
  // pipeline unnamed ones). Should the update fail, PostgreSQL refuses the insert too, and the
  // update's error is the one thrown.
  const [[stored]] = await Promise.all([
    tx.update(users).set(columns).where(eq(users.id, id)).returning(),
    audit && appendAuditEvent(tx, audit),
  ]);
  for (const unlinked of unlinkUnvouched ?? []) {
    const removed = await tx
      .delete(externalIdentities)
      .where(unvouchedIdentityOfUser(externalIdentities, unlinked.identityId, id))
      .returning({ id: externalIdentities.id });
    if (removed.length > 0) await appendAuditEvent(tx, unlinked.audit);
  }
  if (endSessions) await endSubjectSessions(tx, 'user', id, user.updated, endSessions.keepSessionId);
  if (voidTokens) await voidTokensOf(tx, id, user.updated);
  if (mail) await insertMail(tx, mail);
  return stored ?? null;
}

/** The user's row, locked until the transaction ends. */
export async function lockedUser(tx: PostgresTx, id: string): Promise<User | undefined> {
  const [user] = await tx.select().from(users).where(eq(users.id, id)).for('update');
  return user;
}
