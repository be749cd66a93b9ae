import type { ErrorCode } from '@uas/domain';
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
};
