import { eq } from 'drizzle-orm';
import type { User, UserWrite } from '@uas/domain';
import { unvouchedIdentityOfUser } from '../shared/identity-conditions';
import { voidTokensOf } from './sqlite-action-token-statements';
import { appendAuditEvent } from './sqlite-audit-trail';
import type { SqliteDb } from './sqlite-db';
import { insertMail } from './sqlite-mail-queue';
import { externalIdentities, users } from './sqlite-schema';
import { endSubjectSessions } from './sqlite-subject-sessions';

/**
 * Writes what a change decided, inside the caller's transaction (which holds the write lock): the
 * user, and whatever the change implies. Also what a token's redeem writes.
 */
export function writeUser(
  tx: SqliteDb,
  id: string,
  { user, endSessions, audit, voidTokens, mail, unlinkUnvouched }: UserWrite,
): User | null {
  const { id: _, ...columns } = user;
  const stored = tx.update(users).set(columns).where(eq(users.id, id)).returning().get() ?? null;
  for (const unlinked of unlinkUnvouched ?? []) {
    const removed = tx
      .delete(externalIdentities)
      .where(unvouchedIdentityOfUser(externalIdentities, unlinked.identityId, id))
      .returning({ id: externalIdentities.id })
      .all();
    if (removed.length > 0) appendAuditEvent(tx, unlinked.audit);
  }
  if (endSessions) endSubjectSessions(tx, 'user', id, user.updated, endSessions.keepSessionId);
  if (voidTokens) voidTokensOf(tx, id, user.updated).run();
  if (mail) insertMail(tx, mail);
  if (audit) appendAuditEvent(tx, audit);
  return stored;
}
