import { inArray } from 'drizzle-orm';
import type { SubjectKind } from '@uas/domain';
import { liveSessionsOf } from '../shared/conditions';
import { liveSessionsOfUsers } from '../shared/user-import';
import type { PostgresDb, PostgresTx } from './postgres-db';
import { deleteAccountRecords } from './postgres-openid-record-statements';
import { openIdRecords, sessions } from './postgres-schema';

type Handle = PostgresDb | PostgresTx;

/**
 * Ends a subject's live sessions at `at` (but `keepSessionId`) inside the caller's transaction. A
 * user's also ends what the OpenID engine holds for them (its sessions, grants, codes and tokens):
 * signing a user out signs them out of every application too. True when anything ended.
 */
export async function endSubjectSessions(
  tx: Handle,
  kind: SubjectKind,
  subjectId: string,
  at: Date,
  keepSessionId?: string,
): Promise<boolean> {
  const ended = await tx
    .update(sessions)
    .set({ revoked: at })
    .where(liveSessionsOf(sessions, kind, subjectId, keepSessionId));
  const dropped = kind === 'user' ? (await deleteAccountRecords(tx, subjectId)).count : 0;
  return ended.count + dropped > 0;
}

/** endSubjectSessions for each of the given users, in two statements. */
export async function endUsersSessions(tx: Handle, userIds: readonly string[], at: Date): Promise<void> {
  await tx.update(sessions).set({ revoked: at }).where(liveSessionsOfUsers(sessions, userIds));
  await tx.delete(openIdRecords).where(inArray(openIdRecords.accountId, [...userIds]));
}
