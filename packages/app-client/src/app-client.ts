import createClient, { type Client } from 'openapi-fetch';
import { ApiError, unwrap } from './api-error.ts';
import type { components, paths } from './api-types.ts';
import { BearerSession, grantOf } from './bearer-session.ts';
import { memoryStore, type RefreshTokenStore } from './refresh-token-store.ts';

type Schemas = components['schemas'];
/** The session record a login or a refresh answers. */
export type SessionDocument = Schemas['SessionDocument'];
/** A login's challenge for an account with a second factor: its `id`, the `kinds` that may answer, passkey options. */
export type MfaChallenge = Schemas['MfaChallengeDocument']['data'];
/** A second step's answer: a TOTP or recovery code, or a passkey assertion (`startAuthentication()`'s result). */
export type SecondStepAnswer = { code: string } | { credential: Record<string, unknown> };
/** The signed-in user's account, as `GET /v1/users/me` answers it. */
export type Account = Schemas['UserDocument']['data'];
/** A client of the end-user API, every path, parameter and body typed from the OpenAPI document. */
export type AppApi = Client<paths>;

export interface AppClientOptions {
  /** The service's origin, such as `https://accounts.example.com` (list the app's origin in its CORS_ORIGINS). */
  baseUrl: string;
  /** Where the refresh token is kept: this object's memory unless told (see `webStorageStore`). */
  refreshTokens?: RefreshTokenStore;
  /** Called when the session has ended and cannot be refreshed: show the login again. */
  onSessionEnded?: () => void;
  /** The fetch to send requests with (the page's own by default). */
  fetch?: (request: Request) => Promise<Response>;
}

/**
 * A browser app's side of a user's session with the service: log in, keep the access token fresh
 * (refreshed shortly before its `exp`, once however many calls need it), call the service or the
 * app's own API with the bearer token, and log out. Every failure is an `ApiError` carrying the
 * service's JSON:API errors.
 */
export class AppClient {
  /** The end-user API, typed, with the session's bearer token. */
  readonly api: AppApi;
  readonly #anonymous: AppApi;
  readonly #session: BearerSession;
  readonly #refreshTokens: RefreshTokenStore;
  readonly #send: (request: Request) => Promise<Response>;

  constructor(options: AppClientOptions) {
    this.#send = options.fetch ?? ((request) => fetch(request));
    const clientOptions = { baseUrl: options.baseUrl, fetch: this.#send };
    this.#anonymous = createClient<paths>(clientOptions);
    this.#refreshTokens = options.refreshTokens ?? memoryStore();
    this.#session = new BearerSession({
      store: this.#refreshTokens,
      exchange: async (refreshToken) =>
        grantOf(
          (await unwrap(this.#anonymous.POST('/v1/refresh', { body: refreshToken ? { refreshToken } : {} }))).data,
        ),
      onEnded: options.onSessionEnded,
    });
    this.api = createClient<paths>(clientOptions);
    this.api.use(this.#session.middleware());
  }

  /** The current access token (a JWT whose claims your app's server verifies); null when signed out. */
  get accessToken(): string | null {
    return this.#session.accessToken;
  }

  /**
   * Logs the user in: null once signed in, or (an account with a second factor) the challenge to
   * answer with `completeSecondStep`. Rejects with ApiError 401 `invalid_credentials`, 403
   * `account_inactive`, 429 `too_many_attempts`…
   */
  async login(email: string, password: string): Promise<MfaChallenge | null> {
    const body = { data: { type: 'users' as const, attributes: { email, password } } };
    const answer = (await unwrap(this.#anonymous.POST('/v1/login', { body }))).data;
    if (answer.data.type === 'mfa_challenges') return answer.data;
    await this.#session.adopt(grantOf(answer as SessionDocument));
    return null;
  }

  /**
   * Answers a login's challenge and signs in. Rejects with ApiError 401 `invalid_second_factor`
   * (try again), 401 `invalid_challenge` (log in again), 429 `too_many_attempts`…
   */
  async completeSecondStep(challenge: string, answer: SecondStepAnswer): Promise<void> {
    const body = { challenge, ...answer };
    await this.#session.adopt(grantOf((await unwrap(this.#anonymous.POST('/v1/login/mfa', { body }))).data));
  }

  /** Options for a passwordless passkey sign-in: pass them to `startAuthentication()`. */
  async passkeyOptions(): Promise<Record<string, unknown>> {
    return (await unwrap(this.#anonymous.POST('/v1/login/passkey/options'))).data.data.attributes.webauthn;
  }

  /** Signs in with a discoverable passkey's assertion over `passkeyOptions()`. */
  async loginWithPasskey(credential: Record<string, unknown>): Promise<void> {
    const body = { credential };
    await this.#session.adopt(grantOf((await unwrap(this.#anonymous.POST('/v1/login/passkey', { body }))).data));
  }

  /**
   * Takes up the session whose refresh token the store kept (after a reload, with a storage
   * store): true when it is still live.
   */
  resume(): Promise<boolean> {
    return this.#session.refresh();
  }

  /** The signed-in user's account. */
  async me(): Promise<Account> {
    return (await unwrap(this.api.GET('/v1/users/me'))).data.data;
  }

  /**
   * `fetch` with the user's bearer token, for the service or for your app's own API (which
   * verifies the token with the service's published keys). A 401 is met with one refresh and
   * one retry; the response is returned as it is, whatever its status.
   */
  fetch(input: RequestInfo | URL, init?: RequestInit): Promise<Response> {
    return this.#session.fetch(new Request(input, init), this.#send);
  }

  /**
   * Revokes the refresh token at the service and forgets the session here (no more refreshes).
   * Rejects, keeping the session, when the service could not be told.
   */
  async logout(): Promise<void> {
    try {
      // First the access token the revocation needs: a refresh for it would retire the token read before.
      await this.#session.currentToken();
      const refreshToken = await this.#refreshTokens.get();
      if (refreshToken !== null) await unwrap(this.api.DELETE('/v1/refresh', { body: { refreshToken } }));
    } catch (error) {
      const ended = error instanceof ApiError && [401, 403, 404].includes(error.status);
      if (!ended) throw error;
    }
    await this.#session.forget();
  }
}
