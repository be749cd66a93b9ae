import type { ContentfulStatusCode } from 'hono/utils/http-status';
import { ERROR_CATALOGUE, type HttpErrorCode } from './error-catalogue';
import type { Problem } from './json-api-errors';

/**
 * Problems of one code that the HTTP layer finds itself (malformed JSON, bad query parameters, a
 * wrong content type...), as opposed to the domain's errors. Thrown, and turned into a response
 * by `onError` with the status and challenge the catalogue gives their code.
 */
export class HttpProblem extends Error {
  readonly status: ContentfulStatusCode;
  readonly problems: readonly Problem[];
  readonly headers: Record<string, string>;

  constructor(
    code: HttpErrorCode,
    occurrences: readonly Omit<Problem, 'code'>[],
    headers: Record<string, string> = {},
  ) {
    super(occurrences.map((problem) => problem.detail).join('; '));
    this.name = 'HttpProblem';
    const { status, challenge } = ERROR_CATALOGUE[code];
    this.status = status;
    this.problems = occurrences.map((occurrence) => ({ code, ...occurrence }));
    this.headers = challenge ? { 'WWW-Authenticate': challenge, ...headers } : headers;
  }
}

const single = (code: HttpErrorCode, detail: string, headers?: Record<string, string>) =>
  new HttpProblem(code, [{ detail }], headers);

export const malformedJson = () => single('malformed_json', 'The request body is not valid JSON.');

export const incompleteBody = () => single('malformed_request', 'The request body was not received whole.');

export interface ParameterProblem {
  parameter: string;
  detail: string;
}

export const invalidParameters = (problems: readonly ParameterProblem[]) =>
  new HttpProblem(
    'invalid_parameter',
    problems.map(({ parameter, detail }) => ({ detail, source: { parameter } })),
  );

export const resourceConflict = (pointer: string, detail: string) =>
  new HttpProblem('resource_conflict', [{ detail, source: { pointer } }]);

export const routeNotFound = () => single('route_not_found', 'No route matches this path.');

/** RFC 9110 §15.5.6: a 405 lists in Allow the methods the path does serve. */
export const methodNotAllowed = (method: string, allowed: readonly string[]) =>
  single('method_not_allowed', `This path does not serve ${method}; it serves ${allowed.join(', ')}.`, {
    Allow: allowed.join(', '),
  });

// The connection is closed after a refused body: say so, or a keep-alive client sends its next
// request into a socket that is about to close.
export const payloadTooLarge = (limitBytes: number) =>
  single('payload_too_large', `The request body must be at most ${limitBytes} bytes.`, { Connection: 'close' });

export const unsupportedMediaType = (mediaTypes = 'application/json or application/vnd.api+json') =>
  single('unsupported_media_type', `A request body must be sent as ${mediaTypes}.`);

export const missingToken = (detail = 'This endpoint needs an Authorization: Bearer access token.') =>
  single('missing_token', detail);

export const crossSiteRequest = () =>
  single(
    'cross_site_request',
    'A request authenticated by the session cookie must come from this origin (Origin or Sec-Fetch-Site header).',
  );

/** Retry-After: a stopping instance is gone in seconds, a database outage may last longer. */
export const notReady = (detail: string) =>
  single('not_ready', detail, { 'Retry-After': '5', 'Cache-Control': 'no-store' });
