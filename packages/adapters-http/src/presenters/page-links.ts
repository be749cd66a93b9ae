import * as v from 'valibot';
import type { PageQuery } from '../schemas/list-query.schemas';

const link = () =>
  v.pipe(v.string(), v.description('A relative URL that keeps the page size and the search or filters.'));

export const pageLinksSchema = v.object({
  first: link(),
  last: link(),
  prev: v.nullable(link()),
  next: v.nullable(link()),
});
type PageLinks = v.InferOutput<typeof pageLinksSchema>;

/**
 * Relative links to pages of the list at `path` that repeat the page size and `kept` (its search
 * or filters, each URL-encoded), so following them keeps both.
 */
export function pageLinks(
  path: string,
  { page, size }: PageQuery,
  total: number,
  kept: Readonly<Record<string, string | undefined>> = {},
): PageLinks {
  const last = Math.max(1, Math.ceil(total / size));
  const keptPart = Object.entries(kept)
    .flatMap(([name, value]) => (value === undefined ? [] : [`&${name}=${encodeURIComponent(value)}`]))
    .join('');
  const link = (number: number) => `${path}?page[number]=${number}&page[size]=${size}${keptPart}`;
  return {
    first: link(1),
    last: link(last),
    // Past the end, "previous" leads back to the last page that has entries.
    prev: page > 1 ? link(Math.min(page - 1, last)) : null,
    next: page < last ? link(page + 1) : null,
  };
}
