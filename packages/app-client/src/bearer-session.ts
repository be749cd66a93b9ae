import type { Middleware } from 'openapi-fetch';
import { ApiError } from './api-error.ts';
import { REFRESH_RETRY_MS, refreshDelayMs } from './refresh-schedule.ts';
import type { RefreshTokenStore } from './refresh-token-store.ts';

/** What a login or a refresh gives: the access token, its expiry (Unix seconds) and the refresh token. */
export interface SessionGrant {
  accessToken: string;
  accessTokenExpiry: number;
  refreshToken: string;
}

/** The grant in a session record, as a login or a refresh answers it (the admin's and the user's alike). */
export const grantOf = ({
  data: { attributes },
}: {
  data: { attributes: { access_token: string; access_token_expiry: number; refresh_token: string } };
}): SessionGrant => ({
  accessToken: attributes.access_token,
  accessTokenExpiry: attributes.access_token_expiry,
  refreshToken: attributes.refresh_token,
});

export interface BearerSessionOptions {
  /** Trades the refresh token (null when a cookie the page never sees carries it) for a new grant. */
  exchange(refreshToken: string | null): Promise<SessionGrant>;
  /** Where the refresh token is kept; null when the browser keeps it in an HttpOnly cookie. */
  store: RefreshTokenStore | null;
  /** Called when the session can no longer be refreshed. */
  onEnded?: () => void;
  /** Runs refreshes one at a time across everything that shares the session (tabs, say), as tokens rotate. */
  exclusive?: <T>(task: () => Promise<T>) => Promise<T>;
}

/** Sends a request as it was built, again if need be. */
type Send = (request: Request) => Promise<Response>;

/**
 * A session's access token, and its refresh: shortly before the token expires, once at a time
 * however many callers need it, and stopped when the session ends. Every request sent through it
 * carries the token, and after a 401 with the token still current it refreshes once and sends the
 * request again. The access token lives only in this object's memory.
 */
export class BearerSession {
  #token: string | null = null;
  /** When the access token expires, by this device's clock (ms). */
  #deadline = 0;
  #timer: ReturnType<typeof setTimeout> | undefined;
  #refreshing: Promise<boolean> | null = null;

  constructor(private readonly options: BearerSessionOptions) {}

  get accessToken(): string | null {
    return this.#token;
  }

  /** Takes a new grant (from a login or a refresh) and schedules its refresh. */
  async adopt(grant: SessionGrant): Promise<void> {
    await this.options.store?.set(grant.refreshToken);
    this.#token = grant.accessToken;
    this.#deadline = Date.now() + lifetimeSeconds(grant) * 1000;
    clearTimeout(this.#timer);
    this.#timer = setTimeout(() => void this.#scheduledRefresh(), refreshDelayMs(this.#deadline / 1000));
  }

  /**
   * Trades the refresh token for a new grant. Resolves false when there is no live session (a
   * 4xx: no token, or a dead one); rejects when the server could not answer (network, 5xx) or
   * asked to wait (429), so that a working session is not thrown away for that. Concurrent callers
   * share one request.
   */
  refresh(): Promise<boolean> {
    const exclusive = this.options.exclusive ?? ((task) => task());
    this.#refreshing ??= exclusive(() => this.#refreshNow()).finally(() => {
      this.#refreshing = null;
    });
    return this.#refreshing;
  }

  async #refreshNow(): Promise<boolean> {
    const { store, exchange } = this.options;
    const refreshToken = store ? await store.get() : null;
    if (store && refreshToken === null) return false;
    try {
      await this.adopt(await exchange(refreshToken));
      return true;
    } catch (error) {
      if (error instanceof ApiError && isSessionRefused(error.status)) {
        await this.forget();
        return false;
      }
      throw error;
    }
  }

  async #scheduledRefresh(): Promise<void> {
    try {
      if (!(await this.refresh())) this.options.onEnded?.();
    } catch {
      if (this.#token) {
        clearTimeout(this.#timer);
        this.#timer = setTimeout(() => void this.#scheduledRefresh(), REFRESH_RETRY_MS);
      }
    }
  }

  /** Refreshes, or says the session has ended (to `onEnded` and as a 401 ApiError). */
  async #refreshOrEnd(): Promise<void> {
    if (await this.refresh()) return;
    this.options.onEnded?.();
    throw new ApiError(401, [{ title: 'Your session has ended. Please sign in again.' }]);
  }

  /**
   * The access token to send now: after the refresh under way, if any, and refreshed first when
   * there is none or it has expired (a device that slept). Rejects with a 401 ApiError when the
   * session has ended.
   */
  async currentToken(): Promise<string> {
    await this.#refreshing?.catch(() => {});
    if (!this.#token || this.#deadline <= Date.now()) await this.#refreshOrEnd();
    return this.#token as string;
  }

  /**
   * The request with the current access token, as a function that builds it again with the
   * token current then. The body is read into bytes: a request sent with a
   * stream body cannot be sent twice, and browsers see such an upload as a stream, not data.
   */
  async #authorized(request: Request): Promise<{ build: () => Request; token: () => string | null }> {
    await this.currentToken();
    const body = request.body === null ? null : await request.arrayBuffer();
    const { url, method, signal, credentials, cache } = request;
    let sentWith: string | null = null;
    const build = () => {
      sentWith = this.#token;
      const headers = new Headers(request.headers);
      headers.set('Authorization', `Bearer ${sentWith}`);
      return new Request(url, { method, headers, body, signal, credentials, cache });
    };
    return { build, token: () => sentWith };
  }

  /** After a 401, one refresh (unless another caller's already replaced the token sent) and one retry. */
  async #retried(response: Response, sent: { build: () => Request; token: () => string | null }, send: Send) {
    if (response.status !== 401) return response;
    if (sent.token() === this.#token) await this.#refreshOrEnd();
    return send(sent.build());
  }

  /** `fetch` with the session's bearer token, refreshed as needed. */
  async fetch(request: Request, send: Send = (r) => fetch(r)): Promise<Response> {
    const sent = await this.#authorized(request);
    return this.#retried(await send(sent.build()), sent, send);
  }

  /** The same, as openapi-fetch middleware, for a typed client. */
  middleware(): Middleware {
    const pending = new Map<string, { build: () => Request; token: () => string | null }>();
    return {
      onRequest: async ({ request, id }) => {
        const sent = await this.#authorized(request);
        pending.set(id, sent);
        return sent.build();
      },
      onResponse: async ({ response, id, options }) => {
        const sent = pending.get(id);
        pending.delete(id);
        return sent ? this.#retried(response, sent, options.fetch) : response;
      },
      onError: ({ id }) => {
        pending.delete(id);
      },
    };
  }

  /** Forgets the session here: no token, no scheduled refresh, no stored refresh token. */
  async forget(): Promise<void> {
    clearTimeout(this.#timer);
    this.#token = null;
    this.#deadline = 0;
    await this.options.store?.set(null);
  }
}

/**
 * The access token's lifetime by the service's clock (`exp` - `iat` of the JWT), so that a device
 * whose clock is set otherwise neither refreshes in a loop nor lets the token lapse; by this
 * device's clock when the token does not say.
 */
function lifetimeSeconds({ accessToken, accessTokenExpiry }: SessionGrant): number {
  try {
    const payload = accessToken.split('.')[1] ?? '';
    const { iat } = JSON.parse(atob(payload.replace(/-/g, '+').replace(/_/g, '/'))) as { iat?: unknown };
    if (typeof iat === 'number') return accessTokenExpiry - iat;
  } catch {
    // Not a JWT: the device's clock it is.
  }
  return accessTokenExpiry - Date.now() / 1000;
}

function isSessionRefused(status: number): boolean {
  return status >= 400 && status < 500 && status !== 408 && status !== 429;
}
