import type { ApiErrorObject } from './types';

/** A failed API call: the HTTP status (0 when the server could not be reached) and its JSON:API errors. */
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
}

function describeErrors(status: number, errors: readonly ApiErrorObject[]): string {
  const first = errors[0];
  return first?.detail || first?.title || `The request failed (HTTP ${status}).`;
}

/** Reads the `errors` member of an error body, tolerating bodies that are not JSON:API. */
export function errorObjectsOf(payload: unknown): ApiErrorObject[] {
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
