import { DomainError, TooManyAttemptsError, ValidationError } from '@uas/domain';
import type { Context, ErrorHandler, NotFoundHandler } from 'hono';
import { HTTPException } from 'hono/http-exception';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import type { AppEnv } from '../app-env';
import type { Logger } from '../logger';
import { ERROR_CATALOGUE } from './error-catalogue';
import { HttpProblem, routeNotFound } from './http-problem';
import { errorDocument, type Problem } from './json-api-errors';

function respond(
  c: Context<AppEnv>,
  status: ContentfulStatusCode,
  problems: readonly Problem[],
  headers: Record<string, string> = {},
) {
  c.set('errorCode', problems[0]?.code);
  return c.json(errorDocument(status, problems), status, headers);
}

/** One error object per validation issue; one for any other domain error. */
function domainProblems(error: DomainError): Problem[] {
  if (error instanceof ValidationError && error.issues.length > 0) {
    return error.issues.map(({ detail, source }) => ({ code: error.code, detail, source }));
  }
  return [{ code: error.code, detail: error.message, source: ERROR_CATALOGUE[error.code].source }];
}

/** 401s carry their code's Bearer challenge (RFC 6750); 429s say when to come back. */
function domainHeaders(error: DomainError): Record<string, string> {
  const { challenge } = ERROR_CATALOGUE[error.code];
  if (challenge) return { 'WWW-Authenticate': challenge };
  if (error instanceof TooManyAttemptsError) return { 'Retry-After': String(error.retryAfterSeconds) };
  return {};
}

/**
 * The app's single error handler: domain errors by their code, the HTTP layer's own problems,
 * and anything else as a generic 500 whose log line carries the request id but no request data.
 */
export function errorHandler(logger: Logger): ErrorHandler<AppEnv> {
  return (error, c) => {
    if (error instanceof DomainError) {
      // The catalogue covers every code at compile time; the fallback guards a mismatched build.
      return respond(c, ERROR_CATALOGUE[error.code]?.status ?? 500, domainProblems(error), domainHeaders(error));
    }
    if (error instanceof HttpProblem) return problemResponse(c, error);
    if (error instanceof HTTPException && error.status < 500) {
      return respond(c, error.status, [{ code: 'bad_request', detail: 'The request could not be processed.' }]);
    }
    const requestId = c.get('requestId');
    logger.error('unexpected error', { requestId, error: error.name, message: error.message });
    return respond(c, 500, [
      {
        id: requestId,
        code: 'internal_error',
        detail: `An unexpected error occurred. Quote request id ${requestId} when reporting it.`,
      },
    ]);
  };
}

function problemResponse(c: Context<AppEnv>, problem: HttpProblem) {
  return respond(c, problem.status, problem.problems, problem.headers);
}

/** Unknown routes get a JSON:API 404 like every other error (the panel has its own fallback). */
export const notFoundHandler: NotFoundHandler<AppEnv> = (c) => problemResponse(c, routeNotFound());
