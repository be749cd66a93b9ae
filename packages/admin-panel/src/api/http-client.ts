import { ApiError, errorObjectsOf, parseRetryAfter } from './api-error';

export interface RequestOptions {
  method?: 'GET' | 'POST' | 'PATCH' | 'DELETE';
  /** Admin access token sent as `Authorization: Bearer`. */
  token?: string | null;
  /** JSON body; omitted entirely when undefined. */
  body?: unknown;
  signal?: AbortSignal;
}

/**
 * One same-origin call to the API. Resolves with the parsed JSON body (undefined for 204),
 * rejects with an ApiError for any non-2xx status or a network failure; aborts reject as usual.
 */
export async function requestJson<T>(path: string, options: RequestOptions = {}): Promise<T> {
  const headers = new Headers({ Accept: 'application/vnd.api+json, application/json' });
  if (options.token) headers.set('Authorization', `Bearer ${options.token}`);
  const init: RequestInit = {
    method: options.method ?? 'GET',
    headers,
    credentials: 'same-origin',
    cache: 'no-store',
    signal: options.signal ?? null,
  };
  if (options.body !== undefined) {
    headers.set('Content-Type', 'application/vnd.api+json');
    init.body = JSON.stringify(options.body);
  }

  let response: Response;
  try {
    response = await fetch(path, init);
  } catch (error) {
    if (isAbort(error)) throw error;
    throw ApiError.network();
  }

  const payload = response.status === 204 ? undefined : await readJson(response);
  if (!response.ok) {
    throw new ApiError(
      response.status,
      errorObjectsOf(payload),
      parseRetryAfter(response.headers.get('Retry-After')),
    );
  }
  return payload as T;
}

async function readJson(response: Response): Promise<unknown> {
  const text = await response.text();
  if (text === '') return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

export function isAbort(error: unknown): boolean {
  return error instanceof DOMException && error.name === 'AbortError';
}
