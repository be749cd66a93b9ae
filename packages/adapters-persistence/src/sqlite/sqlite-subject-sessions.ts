import { inArray } from 'drizzle-orm';
import type { SubjectKind } from '@uas/domain';
import { liveSessionsOf } from '../shared/conditions';
import { liveSessionsOfUsers } from '../shared/user-import';
import type { SqliteDb } from './sqlite-db';
import { deleteAccountRecords } from './sqlite-openid-record-statements';
import { openIdRecords, sessions } from './sqlite-schema';

/**
 * Ends a subject's live sessions at `at` (but `keepSessionId`) inside the caller's transaction. A
 * user's also ends what the OpenID engine holds for them (its sessions, grants, codes and tokens):
 * signing a user out signs them out of every application too. True when anything ended.
 */
export function endSubjectSessions(
  tx: SqliteDb,
  kind: SubjectKind,
  subjectId: string,
  at: Date,
  keepSessionId?: string,
): boolean {
  const ended = tx
    .update(sessions)
    .set({ revoked: at })
    .where(liveSessionsOf(sessions, kind, subjectId, keepSessionId))
    .run().changes;
  const dropped = kind === 'user' ? deleteAccountRecords(tx, subjectId).run().changes : 0;
  return ended + dropped > 0;
}

/** endSubjectSessions for each of the given users, in two statements. */
export function endUsersSessions(tx: SqliteDb, userIds: readonly string[], at: Date): void {
  tx.update(sessions).set({ revoked: at }).where(liveSessionsOfUsers(sessions, userIds)).run();
  tx.delete(openIdRecords)
    .where(inArray(openIdRecords.accountId, [...userIds]))
    .run();
}
