import { CONFLICT_POLICIES, type ConflictPolicy } from '@uas/domain';
import { invalidParameters, type ParameterProblem } from '../errors/http-problem';
import type { QueryParameter } from '../openapi/route-description';
import { parseListQuery, SEARCH_PARAMETER } from './list-query.schemas';
import { decodeQueryString, type QueryLookup } from './query-string';

/** The one value of an optional parameter among `allowed`, or a problem naming it. */
function choice<T extends string>(
  query: QueryLookup,
  name: string,
  allowed: readonly T[],
  fallback: T,
  problems: ParameterProblem[],
): T {
  const values = query(name);
  if (values === undefined) return fallback;
  if (values.length === 1 && (allowed as readonly string[]).includes(values[0]!)) return values[0] as T;
  problems.push({ parameter: name, detail: `${name} must be one of ${allowed.join(', ')}, given once` });
  return fallback;
}

const BOOLEAN = ['true', 'false'] as const;

const choiceParameter = (name: string, allowed: readonly string[], fallback: string, description: string) => ({
  name,
  description,
  schema: { type: 'string', enum: [...allowed], default: fallback },
});

export const IMPORT_QUERY_PARAMETERS: readonly QueryParameter[] = [
  choiceParameter('on_conflict', CONFLICT_POLICIES, 'skip', 'What to do with a record whose email is taken.'),
  choiceParameter('dry_run', BOOLEAN, 'false', 'Check everything and write nothing.'),
];

export const EXPORT_QUERY_PARAMETERS: readonly QueryParameter[] = [
  choiceParameter('with_password_hashes', BOOLEAN, 'false', 'Include each password hash (PHC string).'),
  SEARCH_PARAMETER,
];

export interface ImportQuery {
  onConflict: ConflictPolicy;
  dryRun: boolean;
}

/** `on_conflict` (skip, update or fail; default skip) and `dry_run` (true or false; default false). */
export function parseImportQuery(url: string): ImportQuery {
  const query = decodeQueryString(url);
  const problems: ParameterProblem[] = [];
  const onConflict = choice(query, 'on_conflict', CONFLICT_POLICIES, 'skip', problems);
  const dryRun = choice(query, 'dry_run', BOOLEAN, 'false', problems) === 'true';
  if (problems.length > 0) throw invalidParameters(problems);
  return { onConflict, dryRun };
}

export interface ExportQuery {
  withPasswordHashes: boolean;
  search: string | undefined;
}

/** `with_password_hashes` (true or false; default false) and `search[email]`, checked as the list checks it. */
export function parseExportQuery(url: string): ExportQuery {
  const query = decodeQueryString(url);
  const problems: ParameterProblem[] = [];
  const withPasswordHashes = choice(query, 'with_password_hashes', BOOLEAN, 'false', problems) === 'true';
  if (problems.length > 0) throw invalidParameters(problems);
  return { withPasswordHashes, search: parseListQuery(query).search };
}
