import { and, eq, gt, isNull, lt, type Column, type Placeholder, type SQL } from 'drizzle-orm';
import type { AuthMethod, SecondStepKind, SignInChallenge, SubjectKind } from '@uas/domain';
import { accountColumns } from './account-columns';

/** A challenge as both dialects' `sign_in_challenges` table holds it. */
export interface SignInChallengeRow {
  id: string;
  owner: SubjectKind;
  userId: string | null;
  adminId: string | null;
  kinds: readonly SecondStepKind[];
  webauthnChallenge: string | null;
  methods: readonly AuthMethod[];
  created: Date;
  expires: Date;
  failures: number;
  completed: Date | null;
  clientAddress: string | null;
  userAgent: string | null;
}

export const signInChallengeRow = ({ subjectId, ...challenge }: SignInChallenge): SignInChallengeRow => ({
  ...challenge,
  ...accountColumns(challenge.owner, subjectId),
});

export const signInChallengeOf = ({ userId, adminId, ...row }: SignInChallengeRow): SignInChallenge => ({
  ...row,
  subjectId: row.owner === 'user' ? userId : adminId,
});

/** The challenge `id` as completed at `completed`: the answer that completed it holds it. */
export const heldSince = (
  t: { id: Column; completed: Column },
  id: string | Placeholder,
  completed: Date | Placeholder,
): SQL | undefined => and(eq(t.id, id), eq(t.completed, completed));

/** The completion's WHERE: the challenge `id`, if not completed, not ended by failures, not expired at `at`. */
export const completable = (
  t: { id: Column; completed: Column; failures: Column; expires: Column },
  id: string | Placeholder,
  at: Date | Placeholder,
  maxFailures: number | Placeholder,
): SQL | undefined => and(eq(t.id, id), isNull(t.completed), lt(t.failures, maxFailures), gt(t.expires, at));
