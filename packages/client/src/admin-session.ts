import type { Middleware } from 'openapi-fetch';
import { type ApiClient, type ApiClientOptions, createApiClient, type SessionDocument } from './api-client';
import { ApiError, unwrap } from './api-error';
import { REFRESH_RETRY_MS, refreshDelayMs } from './refresh-schedule';

export interface AdminIdentity {
  id: string;
  name: string;
  email: string;
}

export interface AdminSessionOptions extends ApiClientOptions {
  /**
   * Where the refresh token lives: in the HttpOnly session cookie, which a page the service
   * serves never sees ('cookie'), or in this object's memory, sent in the body ('memory').
   */
  refreshToken: 'cookie' | 'memory';
  /** Called when the session can no longer be refreshed. */
  onEnded?: () => void;
  /** Runs refreshes one at a time across everything that shares the session (tabs, say), as tokens rotate. */
  exclusive?: <T>(task: () => Promise<T>) => Promise<T>;
}

/**
 * An admin's session: login, a refresh shortly before the access token expires, and for every
 * call through `api` the access token, with one refresh and one retry when it is refused (401).
 * The access token lives only in this object's memory.
 */
export class AdminSession {
  /** The API, authorised by this session. */
  readonly api: ApiClient;
  readonly #anonymous: ApiClient;
  #token: string | null = null;
  #refreshToken: string | null = null;
  #admin: AdminIdentity | null = null;
  #timer: ReturnType<typeof setTimeout> | undefined;
  #refreshing: Promise<boolean> | null = null;

  constructor(private readonly options: AdminSessionOptions) {
    this.#anonymous = createApiClient(options);
    this.api = createApiClient(options);
    this.api.use(this.#authorization());
  }

  get admin(): AdminIdentity | null {
    return this.#admin;
  }

  get accessToken(): string | null {
    return this.#token;
  }

  async login(email: string, password: string): Promise<void> {
    const body = { data: { type: 'users' as const, attributes: { email, password } } };
    this.#adopt((await unwrap(this.#anonymous.POST('/v1/admin/login', { body }))).data);
  }

  /**
   * Trades the refresh token for a new session. Resolves false when there is no live session
   * (a 4xx: no token, or a dead one); rejects when the server could not answer (network, 5xx)
   * or asked to wait (429), so that a working session is not thrown away for that. Concurrent
   * callers share one request.
   */
  refresh(): Promise<boolean> {
    const exclusive = this.options.exclusive ?? ((task) => task());
    this.#refreshing ??= exclusive(() => this.#refreshNow()).finally(() => {
      this.#refreshing = null;
    });
    return this.#refreshing;
  }

  async #refreshNow(): Promise<boolean> {
    if (this.options.refreshToken === 'memory' && this.#refreshToken === null) return false;
    const body = this.#refreshToken === null ? undefined : { refreshToken: this.#refreshToken };
    try {
      this.#adopt((await unwrap(this.#anonymous.POST('/v1/admin/refresh', body ? { body } : {}))).data);
      return true;
    } catch (error) {
      if (error instanceof ApiError && isSessionRefused(error.status)) {
        this.#forget();
        return false;
      }
      throw error;
    }
  }

  /**
   * Adds the access token to every call, and after a 401 refreshes once and sends the call again.
   * The body is read into bytes first: a request sent with a stream body (as a clone would be)
   * cannot be sent twice, and browsers and their tools see such an upload as a stream, not data.
   */
  #authorization(): Middleware {
    const sent = new Map<string, () => Request>();
    return {
      onRequest: async ({ request, id }) => {
        if (!this.#token) await this.#refreshOrEnd();
        const body = request.body === null ? null : await request.arrayBuffer();
        const { url, method, signal, credentials, cache } = request;
        const build = () => {
          const headers = new Headers(request.headers);
          headers.set('Authorization', `Bearer ${this.#token}`);
          return new Request(url, { method, headers, body, signal, credentials, cache });
        };
        sent.set(id, build);
        return build();
      },
      onResponse: async ({ response, id, options }) => {
        const again = sent.get(id);
        sent.delete(id);
        if (response.status !== 401 || again === undefined) return response;
        await this.#refreshOrEnd();
        return options.fetch(again());
      },
      onError: ({ id }) => {
        sent.delete(id);
      },
    };
  }

  async #refreshOrEnd(): Promise<void> {
    if (await this.refresh()) return;
    this.options.onEnded?.();
    throw new ApiError(401, [{ title: 'Your session has ended. Please sign in again.' }]);
  }

  /**
   * Ends the session on the server (which also clears the cookie), then forgets it here.
   * Rejects, keeping the session, when the server could not be told.
   */
  async logout(): Promise<void> {
    const admin = this.#admin;
    try {
      if (admin) await unwrap(this.api.DELETE('/v1/admin/logout/{id}', { params: { path: { id: admin.id } } }));
    } catch (error) {
      const ended = error instanceof ApiError && [401, 403, 404].includes(error.status);
      if (!ended) throw error;
    }
    this.#forget();
  }

  #adopt({ data }: SessionDocument): void {
    const { id, attributes } = data;
    this.#admin = { id, name: attributes.name, email: attributes.email };
    this.#token = attributes.access_token;
    if (this.options.refreshToken === 'memory') this.#refreshToken = attributes.refresh_token;
    this.#schedule(refreshDelayMs(attributes.access_token_expiry));
  }

  #schedule(delay: number): void {
    clearTimeout(this.#timer);
    this.#timer = setTimeout(() => void this.#scheduledRefresh(), delay);
  }

  async #scheduledRefresh(): Promise<void> {
    try {
      if (!(await this.refresh())) this.options.onEnded?.();
    } catch {
      if (this.#token) this.#schedule(REFRESH_RETRY_MS);
    }
  }

  #forget(): void {
    clearTimeout(this.#timer);
    this.#token = null;
    this.#refreshToken = null;
    this.#admin = null;
  }
}

function isSessionRefused(status: number): boolean {
  return status >= 400 && status < 500 && status !== 408 && status !== 429;
}
