/** What the users page shows: kept in the panel's URL and turned into API list paths. */
export interface ListQuery {
  search: string;
  page: number;
  size: PageSize;
}

export const PAGE_SIZES = [10, 20, 50, 100] as const;
export type PageSize = (typeof PAGE_SIZES)[number];
const DEFAULT_QUERY: ListQuery = { search: '', page: 1, size: 20 };

const USERS_PATH = '/v1/admin/users';

/** Reads `?search=…&page=…&size=…` from the panel's URL; bad values fall back to defaults. */
export function queryFromLocation(search: string): ListQuery {
  const params = new URLSearchParams(search);
  return normalise(params.get('search'), params.get('page'), params.get('size'));
}

/** The panel URL's query string for a list query, leaving defaults out ('' when all default). */
export function locationSearchOf(query: ListQuery): string {
  const params = new URLSearchParams();
  if (query.search) params.set('search', query.search);
  if (query.page !== DEFAULT_QUERY.page) params.set('page', String(query.page));
  if (query.size !== DEFAULT_QUERY.size) params.set('size', String(query.size));
  const text = params.toString();
  return text ? `?${text}` : '';
}

/** The API path that lists the users of a query, in the form of the API's own links. */
export function apiPathOf(query: ListQuery): string {
  let path = `${USERS_PATH}?page[number]=${query.page}&page[size]=${query.size}`;
  if (query.search) path += `&search[email]=${encodeURIComponent(query.search)}`;
  return path;
}

/**
 * The list query a pagination link of the API points at, or null when the link is absent or
 * is not a users list path of this origin (a link is never followed anywhere else).
 */
export function queryFromApiLink(link: string | null | undefined): ListQuery | null {
  if (!link?.startsWith(`${USERS_PATH}?`)) return null;
  const params = new URLSearchParams(link.slice(USERS_PATH.length + 1));
  return normalise(params.get('search[email]'), params.get('page[number]'), params.get('page[size]'));
}

function normalise(search: string | null, page: string | null, size: string | null): ListQuery {
  const pageNumber = Number(page);
  const pageSize = Number(size);
  return {
    search: (search ?? '').trim(),
    page: Number.isSafeInteger(pageNumber) && pageNumber >= 1 ? pageNumber : DEFAULT_QUERY.page,
    size: isPageSize(pageSize) ? pageSize : DEFAULT_QUERY.size,
  };
}

function isPageSize(value: number): value is PageSize {
  return (PAGE_SIZES as readonly number[]).includes(value);
}

export function sameQuery(a: ListQuery, b: ListQuery): boolean {
  return a.search === b.search && a.page === b.page && a.size === b.size;
}
