import { ApiError, errorObjectsOf, parseRetryAfter } from './api-error';

export interface RequestOptions {
  method?: 'GET' | 'POST' | 'PATCH' | 'DELETE';
  /** Admin access token sent as `Authorization: Bearer`. */
  token?: string | null;
  /** JSON body; omitted entirely when undefined. */
  body?: unknown;
  /** Sent as `If-Match`: the change applies only to the resource as it was when read (else 412). */
  ifMatch?: string;
  /** A body sent as it is, with its media type, instead of JSON (a file to import). */
  upload?: { content: Blob; type: string };
  signal?: AbortSignal;
}

/** A response body with the resource's `ETag` (null when the response carried none). */
export interface Tagged<T> {
  body: T;
  etag: string | null;
}

/** requestTagged, for callers that need the body only. */
export async function requestJson<T>(path: string, options: RequestOptions = {}): Promise<T> {
  return (await requestTagged<T>(path, options)).body;
}

/**
 * One same-origin call to the API. Resolves with the parsed JSON body (undefined for 204) and
 * the ETag, rejects with an ApiError for any non-2xx status or a network failure; aborts reject
 * as usual.
 */
export async function requestTagged<T>(path: string, options: RequestOptions = {}): Promise<Tagged<T>> {
  const response = await send(path, options);
  const payload = response.status === 204 ? undefined : await readJson(response);
  return { body: payload as T, etag: response.headers.get('ETag') };
}

/** A call whose answer is a file: its bytes and the name `Content-Disposition` gives it. */
export async function requestFile(
  path: string,
  options: RequestOptions = {},
): Promise<{ blob: Blob; filename: string | null }> {
  const response = await send(path, options);
  const filename = /filename="([^"]+)"/.exec(response.headers.get('Content-Disposition') ?? '')?.[1] ?? null;
  return { blob: await response.blob(), filename };
}

async function send(path: string, options: RequestOptions): Promise<Response> {
  const headers = new Headers({ Accept: 'application/vnd.api+json, application/json' });
  if (options.token) headers.set('Authorization', `Bearer ${options.token}`);
  if (options.ifMatch) headers.set('If-Match', options.ifMatch);
  const init: RequestInit = {
    method: options.method ?? 'GET',
    headers,
    credentials: 'same-origin',
    cache: 'no-store',
    signal: options.signal ?? null,
  };
  if (options.upload) {
    headers.set('Content-Type', options.upload.type);
    init.body = options.upload.content;
  } else if (options.body !== undefined) {
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
  if (!response.ok) {
    const payload = await readJson(response);
    throw new ApiError(response.status, errorObjectsOf(payload), parseRetryAfter(response.headers.get('Retry-After')));
  }
  return response;
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
