import { eq, type Column, type Placeholder, type SQL } from 'drizzle-orm';
import type { SubjectKind } from '@uas/domain';

/**
 * The second factor's tables name their account by one of two columns, `user_id` or `admin_id`,
 * each a foreign key that takes the row along when its account is deleted.
 */
export interface AccountColumns {
  userId: Column;
  adminId: Column;
}

/** The columns that name `subjectId`, an account of kind `owner`. */
export const accountColumns = (owner: SubjectKind, subjectId: string | null) => ({
  userId: owner === 'user' ? subjectId : null,
  adminId: owner === 'admin' ? subjectId : null,
});

/** The account a row names. */
export function accountOf(row: { userId: string | null; adminId: string | null }): {
  owner: SubjectKind;
  subjectId: string;
} {
  return row.userId !== null ? { owner: 'user', subjectId: row.userId } : { owner: 'admin', subjectId: row.adminId! };
}

/** The rows of one account, by the index of its column. */
export const ofAccount = (table: AccountColumns, owner: SubjectKind, subjectId: string | Placeholder): SQL =>
  eq(owner === 'user' ? table.userId : table.adminId, subjectId);
