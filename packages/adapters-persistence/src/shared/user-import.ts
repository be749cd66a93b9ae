import { and, asc, eq, inArray, isNull, or, sql, type Column, type SQL } from 'drizzle-orm';
import type { ExportCursor, ImportEntry } from '@uas/domain';
import { columnContains } from './like-pattern';

// The WHERE clauses of the UserImportRepository, written once for both dialects.

interface UserColumns {
  id: Column;
  email: Column;
  created: Column;
}

/** Stored users sharing an email or an id with an entry: both columns have a unique index. */
export function sharingEmailOrId(users: UserColumns, entries: readonly ImportEntry[]): SQL | undefined {
  return or(
    inArray(
      users.email,
      entries.map((entry) => entry.user.email),
    ),
    inArray(
      users.id,
      entries.map((entry) => entry.user.id),
    ),
  );
}

/**
 * Users after the cursor in (created, id) order. A row-value comparison, which both databases
 * answer by seeking users_created_id_idx (an OR of two conditions is not always served by it).
 */
function exportFilter(
  users: UserColumns,
  after: ExportCursor | null,
  emailContains: string | undefined,
): SQL | undefined {
  return and(
    after
      ? sql`(${users.created}, ${users.id}) > (${sql.param(after.created, users.created)}, ${sql.param(after.id, users.id)})`
      : undefined,
    emailContains ? columnContains(users.email, emailContains) : undefined,
  );
}

interface OrderedSelect<Q> {
  where(where: SQL | undefined): Q;
  orderBy(...order: SQL[]): Q;
  limit(limit: number): Q;
}

/** One page of an export: a dynamic select (`.$dynamic()`) of either dialect, narrowed and ordered. */
export function exportPageQuery<Q extends OrderedSelect<Q>>(
  select: Q,
  users: UserColumns,
  { after, limit, emailContains }: { after: ExportCursor | null; limit: number; emailContains: string | undefined },
): Q {
  return select
    .where(exportFilter(users, after, emailContains))
    .orderBy(asc(users.created), asc(users.id))
    .limit(limit);
}

/** The live sessions of the given users. */
export function liveSessionsOfUsers(
  sessions: { kind: Column; subjectId: Column; revoked: Column },
  userIds: readonly string[],
): SQL | undefined {
  return and(eq(sessions.kind, 'user'), inArray(sessions.subjectId, [...userIds]), isNull(sessions.revoked));
}

/** Rows per INSERT statement: 10 columns each stay far below either database's parameter limit. */
export const INSERT_CHUNK = 1000;

export function chunks<T>(items: readonly T[], size: number): T[][] {
  return Array.from({ length: Math.ceil(items.length / size) }, (_, i) => items.slice(i * size, (i + 1) * size));
}
