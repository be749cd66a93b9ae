import type { ErrorCode, ProblemSource } from '@uas/domain';
import type { ContentfulStatusCode } from 'hono/utils/http-status';

/** Codes of the problems the HTTP layer finds itself, besides the domain's catalogue. */
export type HttpErrorCode =
  | 'malformed_json'
  | 'invalid_parameter'
  | 'resource_conflict'
  | 'route_not_found'
  | 'method_not_allowed'
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

/** Everything the wire form of an error code fixes, whichever layer raises it. */
export interface ErrorRow {
  status: ContentfulStatusCode;
  /** The same on every occurrence, written out so that it reads as English ("Malformed JSON"). */
  title: string;
  /** Where in the request the problem lies, when one place always does. */
  source?: ProblemSource;
  /**
   * The code on the wire, when it is not the key: two problems may share a public code and
   * differ in status (a refused bearer token is a 401, a refused mailed link a 400).
   */
  wire?: string;
  /** The `WWW-Authenticate` challenge a 401 of this code carries (RFC 6750). */
  challenge?: string;
}

/** RFC 6750 §3.1: no credentials sent gets a bare challenge; credentials sent and refused name the error. */
const BEARER = 'Bearer';
const BEARER_INVALID_TOKEN = 'Bearer error="invalid_token"';

/**
 * One row per error code. Typed over every code, so a new code in the domain's catalogue or the
 * HTTP layer's does not compile until it has its row here.
 */
export const ERROR_CATALOGUE: Record<ApiErrorCode, ErrorRow> = {
  invalid_attribute: { status: 422, title: 'Invalid attribute' },
  email_taken: { status: 409, title: 'Email taken', source: { pointer: '/data/attributes/email' } },
  not_found: { status: 404, title: 'Not found' },
  invalid_credentials: { status: 401, title: 'Invalid credentials', challenge: BEARER },
  account_inactive: { status: 403, title: 'Account inactive' },
  email_not_verified: { status: 403, title: 'Email not verified' },
  invalid_token: { status: 401, title: 'Invalid token', challenge: BEARER_INVALID_TOKEN },
  invalid_action_token: { status: 400, title: 'Invalid token', wire: 'invalid_token' },
  email_already_verified: { status: 409, title: 'Email already verified' },
  refresh_token_reused: { status: 401, title: 'Refresh token reused', challenge: BEARER_INVALID_TOKEN },
  forbidden: { status: 403, title: 'Forbidden' },
  signup_disabled: { status: 403, title: 'Sign-up disabled' },
  too_many_attempts: { status: 429, title: 'Too many attempts' },
  precondition_failed: { status: 412, title: 'Precondition failed' },
  database_unavailable: { status: 503, title: 'Database unavailable' },
  invalid_second_factor: { status: 401, title: 'Invalid second factor' },
  invalid_challenge: { status: 401, title: 'Invalid challenge' },
  second_factor_required: { status: 403, title: 'Second factor required' },
  mfa_enrolment_required: { status: 403, title: 'Second factor enrolment required' },
  factor_already_active: { status: 409, title: 'Factor already active' },
  last_owner: { status: 409, title: 'Last owner' },
  account_banned: { status: 403, title: 'Account banned' },
  impersonation_disabled: { status: 403, title: 'Impersonation disabled' },
  slug_taken: { status: 409, title: 'Slug taken', source: { pointer: '/data/attributes/slug' } },
  identity_provider_error: { status: 502, title: 'Identity provider error' },
  invalid_oauth_state: { status: 400, title: 'Invalid OAuth state' },
  invalid_oauth_code: { status: 400, title: 'Invalid OAuth code' },
  identity_not_linked: { status: 409, title: 'Identity not linked' },
  identity_already_linked: { status: 409, title: 'Identity already linked' },
  identity_email_missing: { status: 422, title: 'Identity email missing' },
  last_sign_in_method: { status: 409, title: 'Last sign-in method' },
  malformed_json: { status: 400, title: 'Malformed JSON' },
  invalid_parameter: { status: 400, title: 'Invalid parameter' },
  resource_conflict: { status: 409, title: 'Resource conflict' },
  route_not_found: { status: 404, title: 'Route not found' },
  method_not_allowed: { status: 405, title: 'Method not allowed' },
  payload_too_large: { status: 413, title: 'Payload too large' },
  unsupported_media_type: { status: 415, title: 'Unsupported media type' },
  missing_token: { status: 401, title: 'Missing token', challenge: BEARER },
  cross_site_request: { status: 403, title: 'Cross-site request' },
  // A stray client error of any 4xx status that no layer above classified; 400 is its usual one.
  bad_request: { status: 400, title: 'Bad request' },
  malformed_request: { status: 400, title: 'Malformed request' },
  headers_too_large: { status: 431, title: 'Headers too large' },
  request_timeout: { status: 408, title: 'Request timeout' },
  expectation_failed: { status: 417, title: 'Expectation failed' },
  not_ready: { status: 503, title: 'Not ready' },
  internal_error: { status: 500, title: 'Internal error' },
};

/** The code a problem of `code` carries on the wire. */
export const wireCode = (code: ApiErrorCode): string => ERROR_CATALOGUE[code].wire ?? code;
