import type { ShownUserPage } from '@uas/domain';
import * as v from 'valibot';
import type { ListQuery } from '../schemas/list-query.schemas';
import { pageLinks, pageLinksSchema } from './page-links';
import { adminUserResource, adminUserResourceSchema } from './user.presenter';

const USERS_PATH = '/v1/admin/users';

export const userListDocumentSchema = v.object({
  data: v.array(adminUserResourceSchema),
  links: pageLinksSchema,
  meta: v.object({ total: v.pipe(v.number(), v.integer(), v.description('How many users match.')) }),
});

export const userPageLinks = (query: ListQuery, total: number) =>
  pageLinks(USERS_PATH, query, total, { 'search[email]': query.search });

export function userListDocument(
  result: ShownUserPage,
  query: ListQuery,
): v.InferOutput<typeof userListDocumentSchema> {
  return {
    data: result.users.map(adminUserResource),
    links: userPageLinks(query, result.total),
    meta: { total: result.total },
  };
}
