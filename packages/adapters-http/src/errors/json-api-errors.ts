import type { ProblemSource } from '@uas/domain';
import { type ApiErrorCode, ERROR_CATALOGUE } from './error-catalogue';

/** One problem, before it is given its HTTP status; its title follows from its code. */
export interface Problem {
  /** Set on 500s: the request id, so an operator can find the log line. */
  id?: string;
  code: ApiErrorCode;
  detail: string;
  source?: ProblemSource;
}

/** The JSON:API error document: one error object per problem, `status` a string on the wire. */
export function errorDocument(status: number, problems: readonly Problem[]) {
  return {
    errors: problems.map(({ id, code, detail, source }) => ({
      status: String(status),
      ...(id === undefined ? {} : { id }),
      code,
      title: ERROR_CATALOGUE[code].title,
      detail,
      ...(source === undefined ? {} : { source }),
    })),
  };
}
