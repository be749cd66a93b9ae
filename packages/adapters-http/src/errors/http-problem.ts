import type { ContentfulStatusCode } from 'hono/utils/http-status';
import type { HttpErrorCode, Problem } from './json-api-errors';

/**
 * A problem the HTTP layer finds itself (malformed JSON, a bad query parameter, a wrong content
 * type...), as opposed to the domain's errors. Thrown, and turned into a response by `onError`.
 */
export class HttpProblem extends Error {
  constructor(
    readonly status: ContentfulStatusCode,
    readonly problems: readonly Problem[],
    readonly headers: Record<string, string> = {},
  ) {
    super(problems.map((problem) => problem.detail).join('; '));
    this.name = 'HttpProblem';
  }
}

const single = (status: ContentfulStatusCode, code: HttpErrorCode, detail: string, headers?: Record<string, string>) =>
  new HttpProblem(status, [{ code, detail }], headers);

export const malformedJson = () => single(400, 'malformed_json', 'The request body is not valid JSON.');

export const incompleteBody = () => single(400, 'malformed_request', 'The request body was not received whole.');

export interface ParameterProblem {
  parameter: string;
  detail: string;
}

export const invalidParameters = (problems: readonly ParameterProblem[]) =>
  new HttpProblem(
    400,
    problems.map(({ parameter, detail }) => ({ code: 'invalid_parameter', detail, source: { parameter } })),
  );

export const resourceConflict = (pointer: string, detail: string) =>
  new HttpProblem(409, [{ code: 'resource_conflict', detail, source: { pointer } }]);

export const routeNotFound = () => single(404, 'route_not_found', 'No route matches this method and path.');

// The connection is closed after a refused body: say so, or a keep-alive client sends its next
// request into a socket that is about to close.
export const payloadTooLarge = (limitBytes: number) =>
  single(413, 'payload_too_large', `The request body must be at most ${limitBytes} bytes.`, { Connection: 'close' });

export const unsupportedMediaType = () =>
  single(415, 'unsupported_media_type', 'A request body must be sent as application/json or application/vnd.api+json.');

/**
 * RFC 6750 §3.1: a request that sent no credentials gets a bare `Bearer` challenge, with no
 * `error` parameter (that is for credentials that were sent and refused, as in `invalid_token`).
 */
export const missingToken = (detail = 'This endpoint needs an Authorization: Bearer access token.') =>
  single(401, 'missing_token', detail, { 'WWW-Authenticate': 'Bearer' });

export const crossSiteRequest = () =>
  single(
    403,
    'cross_site_request',
    'A request authenticated by the session cookie must come from this origin (Origin or Sec-Fetch-Site header).',
  );

/** Retry-After: a stopping instance is gone in seconds, a database outage may last longer. */
export const notReady = (detail: string) =>
  single(503, 'not_ready', detail, { 'Retry-After': '5', 'Cache-Control': 'no-store' });
