import type { ErrorCode, ProblemSource } from '@uas/domain';
import type { ContentfulStatusCode } from 'hono/utils/http-status';

/**
 * The HTTP status of every domain error code. Typed over the whole `ErrorCode` union, so a new
 * code in the domain's catalogue does not compile until it is given a status here.
 */
export const STATUS_BY_CODE: Record<ErrorCode, ContentfulStatusCode> = {
  invalid_attribute: 422,
  email_taken: 409,
  not_found: 404,
  invalid_credentials: 401,
  account_inactive: 403,
  invalid_token: 401,
  refresh_token_reused: 401,
  forbidden: 403,
  too_many_attempts: 429,
  precondition_failed: 412,
};

/** Where in the request a domain error that is not a ValidationError lies, when one place does. */
export const SOURCE_BY_CODE: Partial<Record<ErrorCode, ProblemSource>> = {
  email_taken: { pointer: '/data/attributes/email' },
};
