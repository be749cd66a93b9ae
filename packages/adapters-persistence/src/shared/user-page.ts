import { asc, type Column, type SQL } from 'drizzle-orm';
import type { UserListQuery } from '@uas/domain';
import { columnContains } from './like-pattern';

interface UserListColumns {
  id: Column;
  email: Column;
  created: Column;
}

/** A dynamic select (`.$dynamic()`) of either dialect, as far as a page of users needs it. */
interface PageableSelect<Q> {
  where(where: SQL | undefined): Q;
  orderBy(...order: SQL[]): Q;
  limit(limit: number): Q;
  offset(offset: number): Q;
}

/** The users a list query matches; `operator` is the dialect's case-insensitive LIKE. */
export function userFilter(users: UserListColumns, query: UserListQuery, operator: 'like' | 'ilike'): SQL | undefined {
  return query.emailContains ? columnContains(users.email, query.emailContains, operator) : undefined;
}

/** The page a list query asks for, in (created, id) order: the order the users_created_id_idx index holds. */
export function userPage<Q extends PageableSelect<Q>>(
  select: Q,
  users: UserListColumns,
  query: UserListQuery,
  operator: 'like' | 'ilike',
): Q {
  return select
    .where(userFilter(users, query, operator))
    .orderBy(asc(users.created), asc(users.id))
    .limit(query.size)
    .offset((query.page - 1) * query.size);
}
