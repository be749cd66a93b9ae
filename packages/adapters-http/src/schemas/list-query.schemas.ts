import { DEFAULT_PAGE_SIZE, EMAIL_MAX_LENGTH, isStorableText, MAX_PAGE_SIZE, UNSTORABLE_TEXT } from '@uas/domain';
import { invalidParameters, type ParameterProblem } from '../errors/http-problem';
import type { QueryParameter } from '../openapi/route-description';
import type { QueryLookup } from './query-string';

/** Far beyond any real listing, and small enough that (page - 1) × size stays an exact integer. */
const MAX_PAGE_NUMBER = Math.floor(Number.MAX_SAFE_INTEGER / MAX_PAGE_SIZE);

/** `page[number]` and `page[size]`, as every paged list reads them. */
export interface PageQuery {
  page: number;
  size: number;
}

export interface ListQuery extends PageQuery {
  /** The `search[email]` term as sent, when it holds more than blanks. */
  search?: string;
}

/** The query string of a paged list as the typed client sends it. */
export interface PageQueryInput {
  'page[number]'?: string;
  'page[size]'?: string;
}

/** The query string of GET /v1/admin/users as the typed client sends it. */
export interface ListQueryInput extends PageQueryInput {
  'search[email]'?: string;
}

export const SEARCH_PARAMETER: QueryParameter = {
  name: 'search[email]',
  description: 'Only users whose email contains this text, in any case; `%`, `_` and `\\` are literal.',
  schema: { type: 'string', maxLength: EMAIL_MAX_LENGTH },
};

/** `page[number]` and `page[size]` of a list of `items`, as the API document describes them. */
export const pageParameters = (items: string): QueryParameter[] => [
  {
    name: 'page[number]',
    description: 'The page, from 1. Past the last page, the list is empty.',
    schema: { type: 'integer', minimum: 1, maximum: MAX_PAGE_NUMBER, default: 1 },
  },
  {
    name: 'page[size]',
    description: `${items} per page.`,
    schema: { type: 'integer', minimum: 1, maximum: MAX_PAGE_SIZE, default: DEFAULT_PAGE_SIZE },
  },
];

/** The parameters parseListQuery reads, as the API document describes them. */
export const LIST_QUERY_PARAMETERS: readonly QueryParameter[] = [...pageParameters('Users'), SEARCH_PARAMETER];

/**
 * Reads a list's query parameters, gathering every problem: each bad parameter is one 400 problem
 * naming it in `source.parameter`; a repeated parameter is bad too (which one would count?).
 * `done()` throws them all at once.
 */
export function parameterReader(queries: QueryLookup) {
  const problems: ParameterProblem[] = [];
  const single = (parameter: string): string | undefined => {
    const values = queries(parameter) ?? [];
    if (values.length > 1) problems.push({ parameter, detail: `${parameter} must be given at most once` });
    return values[0];
  };
  const positive = (parameter: string, fallback: number, max: number): number => {
    const raw = single(parameter);
    if (raw === undefined) return fallback;
    const value = /^\d{1,16}$/.test(raw) ? Number(raw) : Number.NaN;
    if (!(value >= 1 && value <= max)) {
      problems.push({ parameter, detail: `${parameter} must be a positive integer of at most ${max}` });
    }
    return value;
  };
  return {
    problems,
    single,
    page: (): PageQuery => ({
      page: positive('page[number]', 1, MAX_PAGE_NUMBER),
      size: positive('page[size]', DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE),
    }),
    done(): void {
      if (problems.length > 0) throw invalidParameters(problems);
    },
  };
}

/** Reads `page[number]` and `page[size]` of a list that has nothing else to ask. */
export function parsePageQuery(queries: QueryLookup): PageQuery {
  const reader = parameterReader(queries);
  const page = reader.page();
  reader.done();
  return page;
}

/** Reads `page[number]`, `page[size]` and `search[email]`. */
export function parseListQuery(queries: QueryLookup): ListQuery {
  const reader = parameterReader(queries);
  const page = reader.page();
  const search = reader.single('search[email]');
  if (search !== undefined && search.length > EMAIL_MAX_LENGTH) {
    reader.problems.push({
      parameter: 'search[email]',
      detail: `search[email] must be at most ${EMAIL_MAX_LENGTH} characters`,
    });
  } else if (search !== undefined && !isStorableText(search)) {
    reader.problems.push({ parameter: 'search[email]', detail: `search[email] ${UNSTORABLE_TEXT}` });
  }
  reader.done();
  return { ...page, ...(search?.trim() ? { search } : {}) };
}
