import {
  ApiError,
  BearerSession,
  grantOf,
  type MfaChallenge,
  memoryStore,
  type SecondStepAnswer,
  type SessionGrant,
  unwrap,
} from '@uas/app-client';
import { type ApiClient, type ApiClientOptions, createApiClient, type SessionDocument } from './api-client';

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
  readonly #session: BearerSession;
  #admin: AdminIdentity | null = null;

  constructor(options: AdminSessionOptions) {
    this.#anonymous = createApiClient(options);
    this.#session = new BearerSession({
      store: options.refreshToken === 'memory' ? memoryStore() : null,
      exchange: async (refreshToken) =>
        this.#granted(
          (await unwrap(this.#anonymous.POST('/v1/admin/refresh', refreshToken ? { body: { refreshToken } } : {})))
            .data,
        ),
      onEnded: options.onEnded,
      exclusive: options.exclusive,
    });
    this.api = createApiClient(options);
    this.api.use(this.#session.middleware());
  }

  /** The signed-in admin; null once the session has ended (its token forgotten). */
  get admin(): AdminIdentity | null {
    return this.#session.accessToken === null ? null : this.#admin;
  }

  get accessToken(): string | null {
    return this.#session.accessToken;
  }

  /** Signs in: null once signed in, or (an admin with a second factor) the challenge for `completeSecondStep`. */
  async login(email: string, password: string): Promise<MfaChallenge | null> {
    const body = { data: { type: 'users' as const, attributes: { email, password } } };
    const answer = (await unwrap(this.#anonymous.POST('/v1/admin/login', { body }))).data;
    if (answer.data.type === 'mfa_challenges') return answer.data;
    await this.#session.adopt(this.#granted(answer as SessionDocument));
    return null;
  }

  /** Answers the login's challenge with a code or a passkey assertion, and signs in. */
  async completeSecondStep(challenge: string, answer: SecondStepAnswer): Promise<void> {
    const body = { challenge, ...answer };
    await this.#session.adopt(
      this.#granted((await unwrap(this.#anonymous.POST('/v1/admin/login/mfa', { body }))).data),
    );
  }

  /** Options for a passwordless passkey sign-in (or a passkey proof in a request): pass them to `startAuthentication()`. */
  async passkeyOptions(): Promise<Record<string, unknown>> {
    return (await unwrap(this.#anonymous.POST('/v1/admin/login/passkey/options'))).data.data.attributes.webauthn;
  }

  /** Signs in with a discoverable passkey's assertion over `passkeyOptions()`. */
  async loginWithPasskey(credential: Record<string, unknown>): Promise<void> {
    const body = { credential };
    await this.#session.adopt(
      this.#granted((await unwrap(this.#anonymous.POST('/v1/admin/login/passkey', { body }))).data),
    );
  }

  /**
   * Trades the refresh token for a new session. Resolves false when there is no live session
   * (a 4xx: no token, or a dead one); rejects when the server could not answer (network, 5xx)
   * or asked to wait (429), so that a working session is not thrown away for that. Concurrent
   * callers share one request.
   */
  refresh(): Promise<boolean> {
    return this.#session.refresh();
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
    this.#admin = null;
    await this.#session.forget();
  }

  #granted(document: SessionDocument): SessionGrant {
    const { id, attributes } = document.data;
    this.#admin = { id, name: attributes.name, email: attributes.email };
    return grantOf(document);
  }
}
