import { DEFAULT_PAGE_SIZE, EMAIL_MAX_LENGTH, isStorableText, MAX_PAGE_SIZE, UNSTORABLE_TEXT } from '@uas/domain';
import { invalidParameters, type ParameterProblem } from '../errors/http-problem';
import type { QueryParameter } from '../openapi/route-description';
import type { QueryLookup } from './query-string';

/** Far beyond any real listing, and small enough that (page - 1) × size stays an exact integer. */
const MAX_PAGE_NUMBER = Math.floor(Number.MAX_SAFE_INTEGER / MAX_PAGE_SIZE);

export interface ListQuery {
  page: number;
  size: number;
  /** The `search[email]` term as sent, when it holds more than blanks. */
  search?: string;
}

/** The query string of GET /v1/admin/users as the typed client sends it. */
export interface ListQueryInput {
  'page[number]'?: string;
  'page[size]'?: string;
  'search[email]'?: string;
}

export const SEARCH_PARAMETER: QueryParameter = {
  name: 'search[email]',
  description: 'Only users whose email contains this text, in any case; `%`, `_` and `\\` are literal.',
  schema: { type: 'string', maxLength: EMAIL_MAX_LENGTH },
};

/** The parameters parseListQuery reads, as the API document describes them. */
export const LIST_QUERY_PARAMETERS: readonly QueryParameter[] = [
  {
    name: 'page[number]',
    description: 'The page, from 1. Past the last page, the list is empty.',
    schema: { type: 'integer', minimum: 1, maximum: MAX_PAGE_NUMBER, default: 1 },
  },
  {
    name: 'page[size]',
    description: 'Users per page.',
    schema: { type: 'integer', minimum: 1, maximum: MAX_PAGE_SIZE, default: DEFAULT_PAGE_SIZE },
  },
  SEARCH_PARAMETER,
];

/**
 * Reads `page[number]`, `page[size]` and `search[email]`. Every bad parameter is one 400 problem
 * naming it in `source.parameter`; a repeated parameter is bad too (which one would count?).
 */
export function parseListQuery(queries: QueryLookup): ListQuery {
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
  const page = positive('page[number]', 1, MAX_PAGE_NUMBER);
  const size = positive('page[size]', DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE);
  const search = single('search[email]');
  if (search !== undefined && search.length > EMAIL_MAX_LENGTH) {
    problems.push({
      parameter: 'search[email]',
      detail: `search[email] must be at most ${EMAIL_MAX_LENGTH} characters`,
    });
  } else if (search !== undefined && !isStorableText(search)) {
    problems.push({ parameter: 'search[email]', detail: `search[email] ${UNSTORABLE_TEXT}` });
  }
  if (problems.length > 0) throw invalidParameters(problems);
  return { page, size, ...(search?.trim() ? { search } : {}) };
}
