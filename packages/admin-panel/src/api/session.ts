import { ApiError } from './api-error';
import { requestFile, requestJson, requestTagged, type RequestOptions, type Tagged } from './http-client';
import { REFRESH_RETRY_MS, refreshDelayMs } from './refresh-schedule';
import type { SessionRecord } from './types';

export interface AdminIdentity {
  id: string;
  name: string;
  email: string;
}

/**
 * The admin's session. The access token lives only in this object's memory; the refresh token
 * lives only in the HttpOnly cookie the server sets, and is never read or stored here.
 */
export class Session {
  #token: string | null = null;
  #expiry = 0;
  #admin: AdminIdentity | null = null;
  #timer: ReturnType<typeof setTimeout> | undefined;
  #refreshing: Promise<boolean> | null = null;

  /** @param onEnded called when the session can no longer be refreshed. */
  constructor(private readonly onEnded: () => void) {}

  get admin(): AdminIdentity | null {
    return this.#admin;
  }

  async login(email: string, password: string): Promise<void> {
    const record = await requestJson<SessionRecord>('/v1/admin/login', {
      method: 'POST',
      body: { data: { type: 'users', attributes: { email, password } } },
    });
    this.#adopt(record);
  }

  /**
   * Trades the refresh cookie for a new access token. Resolves false when there is no live
   * session (a 4xx: no cookie, or a dead token); rejects when the server could not answer
   * (network, 5xx) or asked to wait (429), so a working session is not thrown away for that.
   * Concurrent callers share one request, and tabs take turns, since refresh tokens rotate.
   */
  refresh(): Promise<boolean> {
    this.#refreshing ??= withRefreshLock(() => this.#refreshNow()).finally(() => {
      this.#refreshing = null;
    });
    return this.#refreshing;
  }

  async #refreshNow(): Promise<boolean> {
    try {
      this.#adopt(await requestJson<SessionRecord>('/v1/admin/refresh', { method: 'POST' }));
      return true;
    } catch (error) {
      if (error instanceof ApiError && isSessionRefused(error.status)) {
        this.#forget();
        return false;
      }
      throw error;
    }
  }

  /** A call with the access token; a 401 triggers one refresh and one retry. */
  async call<T>(path: string, options: Omit<RequestOptions, 'token'> = {}): Promise<T> {
    return (await this.callTagged<T>(path, options)).body;
  }

  /** `call`, with the ETag of the response. */
  callTagged<T>(path: string, options: Omit<RequestOptions, 'token'> = {}): Promise<Tagged<T>> {
    return this.#authorized((token) => requestTagged<T>(path, { ...options, token }));
  }

  /** A call answered by a file (an export), authorised as `call` is. */
  download(
    path: string,
    options: Omit<RequestOptions, 'token'> = {},
  ): Promise<{ blob: Blob; filename: string | null }> {
    return this.#authorized((token) => requestFile(path, { ...options, token }));
  }

  async #authorized<T>(run: (token: string | null) => Promise<T>): Promise<T> {
    if (!this.#token) await this.#refreshOrEnd();
    try {
      return await run(this.#token);
    } catch (error) {
      if (!(error instanceof ApiError) || error.status !== 401) throw error;
      await this.#refreshOrEnd();
      return run(this.#token);
    }
  }

  async #refreshOrEnd(): Promise<void> {
    if (await this.refresh()) return;
    this.onEnded();
    throw new ApiError(401, [{ title: 'Your session has ended. Please sign in again.' }]);
  }

  /**
   * Ends the session on the server (which also clears the cookie), then forgets it here.
   * Rejects, keeping the session, when the server could not be told.
   */
  async logout(): Promise<void> {
    const admin = this.#admin;
    try {
      if (admin) await this.call(`/v1/admin/logout/${encodeURIComponent(admin.id)}`, { method: 'DELETE' });
    } catch (error) {
      const ended = error instanceof ApiError && [401, 403, 404].includes(error.status);
      if (!ended) throw error;
    }
    this.#forget();
  }

  #adopt(record: SessionRecord): void {
    const { id, attributes } = record.data;
    this.#admin = { id, name: attributes.name, email: attributes.email };
    this.#token = attributes.access_token;
    this.#expiry = attributes.access_token_expiry;
    this.#schedule(refreshDelayMs(this.#expiry));
  }

  #schedule(delay: number): void {
    clearTimeout(this.#timer);
    this.#timer = setTimeout(() => void this.#scheduledRefresh(), delay);
  }

  async #scheduledRefresh(): Promise<void> {
    try {
      if (!(await this.refresh())) this.onEnded();
    } catch {
      if (this.#token) this.#schedule(REFRESH_RETRY_MS);
    }
  }

  #forget(): void {
    clearTimeout(this.#timer);
    this.#token = null;
    this.#expiry = 0;
    this.#admin = null;
  }
}

function isSessionRefused(status: number): boolean {
  return status >= 400 && status < 500 && status !== 408 && status !== 429;
}

/** Serialises refreshes across tabs of this origin where the Web Locks API exists. */
function withRefreshLock<T>(task: () => Promise<T>): Promise<T> {
  const locks = typeof navigator === 'undefined' ? undefined : navigator.locks;
  // The DOM typings wrap the callback's promise once more than the runtime does.
  return locks ? (locks.request('admin-session-refresh', task) as Promise<unknown> as Promise<T>) : task();
}
