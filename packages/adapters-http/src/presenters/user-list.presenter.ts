import type { ShownUserPage } from '@uas/domain';
import * as v from 'valibot';
import type { ListQuery } from '../schemas/list-query.schemas';
import { userResource, userResourceSchema } from './user.presenter';

const USERS_PATH = '/v1/admin/users';

const link = () => v.pipe(v.string(), v.description('A relative URL that keeps the page size and the search.'));

export const pageLinksSchema = v.object({
  first: link(),
  last: link(),
  prev: v.nullable(link()),
  next: v.nullable(link()),
});
export type PageLinks = v.InferOutput<typeof pageLinksSchema>;

export const userListDocumentSchema = v.object({
  data: v.array(userResourceSchema),
  links: pageLinksSchema,
  meta: v.object({ total: v.pipe(v.number(), v.integer(), v.description('How many users match.')) }),
});

/** Relative links that repeat the page size and the search term, so following them keeps both. */
export function pageLinks({ page, size, search }: ListQuery, total: number): PageLinks {
  const last = Math.max(1, Math.ceil(total / size));
  const searchPart = search === undefined ? '' : `&search[email]=${encodeURIComponent(search)}`;
  const link = (number: number) => `${USERS_PATH}?page[number]=${number}&page[size]=${size}${searchPart}`;
  return {
    first: link(1),
    last: link(last),
    // Past the end, "previous" leads back to the last page that has users.
    prev: page > 1 ? link(Math.min(page - 1, last)) : null,
    next: page < last ? link(page + 1) : null,
  };
}

export function userListDocument(
  result: ShownUserPage,
  query: ListQuery,
): v.InferOutput<typeof userListDocumentSchema> {
  return {
    data: result.users.map(userResource),
    links: pageLinks(query, result.total),
    meta: { total: result.total },
  };
}
