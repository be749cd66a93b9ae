import type { components } from './api-types.ts';

type ErrorObject = components['schemas']['ErrorObject'];

/** What the client shows of an error object: any of its members, even from a body that is not JSON:API. */
export type ApiErrorObject = Partial<ErrorObject>;

/**
 * A failed API call: the HTTP status (0 when the server could not be reached) and its JSON:API
 * errors, each with the stable `code` the service documents (`invalid_credentials`, …).
 */
export class ApiError extends Error {
  override readonly name = 'ApiError';

  constructor(
    readonly status: number,
    readonly errors: readonly ApiErrorObject[],
    /** Seconds to wait before retrying, from `Retry-After`; null when absent. */
    readonly retryAfter: number | null = null,
  ) {
    super(describeErrors(status, errors));
  }

  static network(): ApiError {
    return new ApiError(0, [{ title: 'Could not reach the server. Check the connection and try again.' }]);
  }

  /** The error of a failed response and its body (as openapi-fetch parsed it). */
  static of(response: Response, body: unknown): ApiError {
    return new ApiError(response.status, errorObjectsOf(body), parseRetryAfter(response.headers.get('Retry-After')));
  }
}

function describeErrors(status: number, errors: readonly ApiErrorObject[]): string {
  const first = errors[0];
  return first?.detail || first?.title || `The request failed (HTTP ${status}).`;
}

/** Reads the `errors` member of an error body, tolerating bodies that are not JSON:API. */
function errorObjectsOf(payload: unknown): ApiErrorObject[] {
  if (typeof payload !== 'object' || payload === null) return [];
  const errors = (payload as { errors?: unknown }).errors;
  return Array.isArray(errors) ? errors.filter(isErrorObject) : [];
}

function isErrorObject(value: unknown): value is ApiErrorObject {
  return typeof value === 'object' && value !== null;
}

/** `Retry-After` is either delta-seconds or an HTTP date. */
export function parseRetryAfter(header: string | null, now: number = Date.now()): number | null {
  if (header === null || header.trim() === '') return null;
  const value = header.trim();
  if (/^\d+$/.test(value)) return Number(value);
  const date = Date.parse(value);
  if (Number.isNaN(date)) return null;
  return Math.max(0, Math.ceil((date - now) / 1000));
}

export function isAbort(error: unknown): boolean {
  return error instanceof DOMException && error.name === 'AbortError';
}

/**
 * The data of an openapi-fetch result, or its ApiError; a fetch that failed (network) becomes
 * ApiError.network(), an abort stays an abort.
 */
export async function unwrap<T>(
  call: Promise<{ data?: T; error?: unknown; response: Response }>,
): Promise<{ data: T; response: Response }> {
  let result: { data?: T; error?: unknown; response: Response };
  try {
    result = await call;
  } catch (error) {
    // The session's own refusal (no live session) passes as it is.
    if (isAbort(error) || error instanceof ApiError) throw error;
    throw ApiError.network();
  }
  if (!result.response.ok) throw ApiError.of(result.response, result.error);
  return { data: result.data as T, response: result.response };
}
