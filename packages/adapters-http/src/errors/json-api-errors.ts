import type { ErrorCode, ProblemSource } from '@uas/domain';

/** Codes of the problems the HTTP layer finds itself, besides the domain's catalogue. */
export type HttpErrorCode =
  | 'malformed_json'
  | 'invalid_parameter'
  | 'resource_conflict'
  | 'route_not_found'
  | 'payload_too_large'
  | 'unsupported_media_type'
  | 'missing_token'
  | 'cross_site_request'
  | 'bad_request'
  | 'malformed_request'
  | 'headers_too_large'
  | 'request_timeout'
  | 'expectation_failed'
  | 'not_ready'
  | 'internal_error';

export type ApiErrorCode = ErrorCode | HttpErrorCode;

/**
 * The title of each code: the same on every occurrence, and written out rather than derived from
 * the code so that it reads as English ("Malformed JSON"). A code without a title does not compile.
 */
const TITLE_BY_CODE: Record<ApiErrorCode, string> = {
  invalid_attribute: 'Invalid attribute',
  email_taken: 'Email taken',
  not_found: 'Not found',
  invalid_credentials: 'Invalid credentials',
  account_inactive: 'Account inactive',
  invalid_token: 'Invalid token',
  refresh_token_reused: 'Refresh token reused',
  forbidden: 'Forbidden',
  too_many_attempts: 'Too many attempts',
  precondition_failed: 'Precondition failed',
  malformed_json: 'Malformed JSON',
  invalid_parameter: 'Invalid parameter',
  resource_conflict: 'Resource conflict',
  route_not_found: 'Route not found',
  payload_too_large: 'Payload too large',
  unsupported_media_type: 'Unsupported media type',
  missing_token: 'Missing token',
  cross_site_request: 'Cross-site request',
  bad_request: 'Bad request',
  malformed_request: 'Malformed request',
  headers_too_large: 'Headers too large',
  request_timeout: 'Request timeout',
  expectation_failed: 'Expectation failed',
  not_ready: 'Not ready',
  internal_error: 'Internal error',
};

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
      title: TITLE_BY_CODE[code],
      detail,
      ...(source === undefined ? {} : { source }),
    })),
  };
}
