import {
  DatabaseUnavailableError,
  DomainError,
  TooManyAttemptsError,
  ValidationError,
  type ProblemSource,
} from '@uas/domain';
import type { Context, ErrorHandler, NotFoundHandler } from 'hono';
import { HTTPException } from 'hono/http-exception';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import type { AppEnv } from '../app-env';
import type { Logger } from '@uas/domain';
import { ERROR_CATALOGUE } from './error-catalogue';
import { HttpProblem, methodNotAllowed, routeNotFound } from './http-problem';
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
function domainProblems(error: DomainError, body: unknown): Problem[] {
  if (error instanceof ValidationError && error.issues.length > 0) {
    return error.issues.map(({ detail, source }) => ({ code: error.code, detail, source }));
  }
  return [{ code: error.code, detail: error.message, source: sourceIn(body, ERROR_CATALOGUE[error.code].source) }];
}

/**
 * A code's pointer, given only where the request's body has that member: a 409 `email_taken`
 * points at the email a create or change sent, but an acceptance or a confirmation (a token and
 * perhaps a password) sent none, so its error points nowhere.
 */
function sourceIn(body: unknown, source: ProblemSource | undefined): ProblemSource | undefined {
  if (source === undefined || !('pointer' in source)) return source;
  let node = body;
  for (const member of source.pointer.split('/').slice(1)) {
    if (node === null || typeof node !== 'object' || !Object.hasOwn(node, member)) return undefined;
    node = (node as Record<string, unknown>)[member];
  }
  return source;
}

/** 401s carry their code's Bearer challenge (RFC 6750); 429s and 503s say when to come back. */
function domainHeaders(error: DomainError): Record<string, string> {
  const { challenge } = ERROR_CATALOGUE[error.code];
  if (challenge) return { 'WWW-Authenticate': challenge };
  if (error instanceof TooManyAttemptsError) return { 'Retry-After': String(error.retryAfterSeconds) };
  if (error instanceof DatabaseUnavailableError) {
    return { 'Retry-After': String(error.retryAfterSeconds), 'Cache-Control': 'no-store' };
  }
  return {};
}

/**
 * The app's single error handler: domain errors by their code, the HTTP layer's own problems,
 * and anything else as a generic 500 whose log line carries the request id but no request data.
 */
export function errorHandler(logger: Logger): ErrorHandler<AppEnv> {
  return (error, c) => {
    if (error instanceof DatabaseUnavailableError) {
      // The operator needs to know; the client only when to retry. The adapter's subclass
      // names the operation and the driver's code, never SQL or values.
      logger.warn('database unavailable', { requestId: c.get('requestId'), cause: error.cause });
    }
    if (error instanceof DomainError) {
      // The catalogue covers every code at compile time; the fallback guards a mismatched build.
      return respond(
        c,
        ERROR_CATALOGUE[error.code]?.status ?? 500,
        domainProblems(error, c.get('jsonBody')),
        domainHeaders(error),
      );
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

/** A route as Hono lists it: `:name` and `*` in its path; `ALL` for middleware. */
export interface RoutedPath {
  method: string;
  path: string;
}

/** How specific each segment is: a literal beats a parameter, which beats a wildcard. */
const segmentRank = (part: string) => (part === '*' ? 0 : part.startsWith(':') ? 1 : 2);

interface ServedPath {
  pattern: RegExp;
  methods: Set<string>;
  /** One rank per segment, compared left to right: the path a request names is the most specific that matches. */
  rank: number[];
}

/** Each routed path as a pattern, with the methods it serves (HEAD wherever GET: Hono answers it). */
function servedPaths(routes: readonly RoutedPath[]): ServedPath[] {
  const byPath = new Map<string, Set<string>>();
  for (const { method, path } of routes) {
    if (method === 'ALL') continue;
    const methods = byPath.get(path) ?? new Set<string>();
    methods.add(method);
    if (method === 'GET') methods.add('HEAD');
    byPath.set(path, methods);
  }
  return [...byPath].map(([path, methods]) => {
    const parts = path.split('/');
    const source = parts
      .map((part) =>
        part.startsWith(':') ? '[^/]+' : part === '*' ? '.*' : part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'),
      )
      .join('/');
    return { pattern: new RegExp(`^${source}$`), methods, rank: parts.map(segmentRank) };
  });
}

/** Negative when `a` is the less specific, as OpenAPI matches a concrete path before a templated one. */
function bySpecificity(a: readonly number[], b: readonly number[]): number {
  for (let i = 0; i < Math.min(a.length, b.length); i++) {
    if (a[i] !== b[i]) return a[i]! - b[i]!;
  }
  return a.length - b.length;
}

/**
 * The methods of the path a request names: of its most specific routed paths only, so that
 * `/v1/admin/users/export` is not taken for a `/v1/admin/users/:id`.
 */
function methodsOf(served: readonly ServedPath[], path: string): Set<string> {
  const matching = served.filter(({ pattern }) => pattern.test(path));
  const best = matching.reduce<number[] | undefined>(
    (top, { rank }) => (top === undefined || bySpecificity(rank, top) > 0 ? rank : top),
    undefined,
  );
  return new Set(
    matching
      .filter(({ rank }) => best !== undefined && bySpecificity(rank, best) === 0)
      .flatMap(({ methods }) => [...methods]),
  );
}

/**
 * The fallback: 405 with `Allow` when the path is served with other methods, else a JSON:API 404
 * like every other error (the panel has its own fallback). `routes` is read on the first miss,
 * once the app has all its routes.
 */
export function notFoundHandler(routes: () => readonly RoutedPath[]): NotFoundHandler<AppEnv> {
  let served: ServedPath[] | undefined;
  return (c) => {
    served ??= servedPaths(routes());
    const allowed = methodsOf(served, c.req.path);
    // A served method that fell through (a missing file under a static route) is a plain 404.
    if (allowed.size === 0 || allowed.has(c.req.method)) return problemResponse(c, routeNotFound());
    return problemResponse(c, methodNotAllowed(c.req.method, [...allowed].sort()));
  };
}
