import { expect } from 'vitest';
import {
  bearer,
  expectNoSecrets,
  fromAddress,
  jsonInit,
  loginDocument,
  usersDocument,
} from '@uas/adapters-http/testing';
import { sessionOf, type Session } from './admin-api';
import type { TestApplication } from './test-application';
import type { components, RefreshTokenBody, SessionDocument, UserDocument, UserResource } from '@uas/client';
import { BCRYPT_PREFIX, refreshBody, USER_PASSWORD } from './wire';

export interface RequestOptions {
  /** The socket address the request comes from (default: no socket, read as 127.0.0.1). */
  address?: string;
}

function passwordsIn(body: RequestInit['body']): string[] {
  if (typeof body !== 'string') return [];
  try {
    // Any body a request may carry: the self-update's names both passwords a body can hold.
    const attributes = (JSON.parse(body) as Partial<components['schemas']['SelfUpdateDocument']> | null)?.data
      ?.attributes;
    return [attributes?.password, attributes?.current_password].filter(
      (value): value is string => typeof value === 'string' && value.length > 0,
    );
  } catch {
    return [];
  }
}

/** Tokens a request presents: Bearer, session cookie, body refresh token, a mailed link's token. */
function tokensSent(init: RequestInit): string[] {
  const headers = new Headers(init.headers);
  type TokenBody = Partial<RefreshTokenBody> & { token?: unknown };
  let body: TokenBody | null;
  try {
    body = typeof init.body === 'string' ? (JSON.parse(init.body) as TokenBody | null) : null;
  } catch {
    body = null;
  }
  return [
    headers.get('authorization')?.replace(/^Bearer\s+/i, ''),
    headers.get('cookie')?.split('=')[1],
    body?.refreshToken,
    body?.token,
  ].filter((value): value is string => typeof value === 'string' && value.length >= 16);
}

function tokensReceived(body: unknown): string[] {
  const attributes = (body as Partial<SessionDocument> | undefined)?.data?.attributes;
  return [attributes?.access_token, attributes?.refresh_token].filter(
    (value): value is string => typeof value === 'string',
  );
}

/**
 * Requests against the real application. Every response is held to the rules that hold for all
 * of them — a request id (the client's when it sent one), JSON unless 204, never a 500, never the
 * admin password, a bcrypt hash, or a password or token the request carried — and every password
 * sent and token seen is remembered, so `expectCleanLogs` can prove none reached a log line.
 */
export class AdminClient {
  private readonly secrets = new Set<string>();
  private cached: Session | undefined;

  constructor(readonly t: TestApplication) {
    this.secrets.add(t.admin.password);
  }

  async request(path: string, init: RequestInit = {}, { address }: RequestOptions = {}): Promise<Response> {
    const passwords = passwordsIn(init.body);
    const tokens = tokensSent(init);
    const response = await this.t.app.request(path, init, address === undefined ? undefined : fromAddress(address));
    await expectWireRules(response, new Headers(init.headers).get('x-request-id'));
    await expectNoSecrets(response, [this.t.admin.password, BCRYPT_PREFIX, ...passwords, ...tokens]);
    const body = response.status === 204 ? undefined : await response.clone().json();
    for (const secret of [...passwords, ...tokens, ...tokensReceived(body)]) this.secrets.add(secret);
    if (response.status === 204 && path.startsWith('/v1/admin/logout/')) this.cached = undefined; // every admin session ended
    return response;
  }

  get(path: string, token?: string, headers: Record<string, string> = {}): Promise<Response> {
    return this.request(path, { headers: { ...(token === undefined ? {} : bearer(token)), ...headers } });
  }

  /** A JSON request; `token` is sent as the Bearer access token. */
  send(
    method: string,
    path: string,
    body: unknown,
    token?: string,
    headers: Record<string, string> = {},
  ): Promise<Response> {
    return this.request(path, jsonInit(method, body, { ...(token === undefined ? {} : bearer(token)), ...headers }));
  }

  delete(path: string, token?: string): Promise<Response> {
    return this.request(path, { method: 'DELETE', headers: token === undefined ? {} : bearer(token) });
  }

  login(
    email = this.t.admin.email,
    password = this.t.admin.password,
    options: RequestOptions = {},
    path = '/v1/admin/login',
  ): Promise<Response> {
    return this.request(path, jsonInit('POST', loginDocument(email, password)), options);
  }

  /** Logs the admin in and returns its session; fails the test unless the login succeeds. */
  async adminSession(
    options: RequestOptions = {},
    { email, password }: { email: string; password: string } = this.t.admin,
  ): Promise<Session> {
    return sessionOf(await this.login(email, password, options));
  }

  /** An admin access token, logging in again only when the one at hand is about to expire. */
  async adminToken(): Promise<string> {
    const now = Math.floor(this.t.clock.now().getTime() / 1000);
    if (!this.cached || this.cached.accessTokenExpiry - now < 60) this.cached = await this.adminSession();
    return this.cached.accessToken;
  }

  /** Logs an end user in through POST /v1/login. */
  async userSession(email: string, password = USER_PASSWORD): Promise<Session> {
    return sessionOf(await this.login(email, password, {}, '/v1/login'));
  }

  refresh(refreshToken: string, path = '/v1/admin/refresh', headers: Record<string, string> = {}): Promise<Response> {
    return this.send('POST', path, refreshBody(refreshToken), undefined, headers);
  }

  /** Creates a user through the API (password USER_PASSWORD unless given); fails the test unless 201. */
  async createUser(attributes: Record<string, unknown>, token?: string): Promise<UserResource> {
    const response = await this.send(
      'POST',
      '/v1/admin/users',
      usersDocument({ password: USER_PASSWORD, ...attributes }),
      token ?? (await this.adminToken()),
    );
    expect(response.status, await response.clone().text()).toBe(201);
    return ((await response.json()) as UserDocument).data;
  }

  /** No log line written so far holds a password sent, a token seen or a bcrypt hash. */
  expectCleanLogs(): void {
    const text = this.t.logs.join('\n');
    expect(this.t.logs.length).toBeGreaterThan(0);
    for (const secret of [...this.secrets, BCRYPT_PREFIX]) {
      expect(text.includes(secret), `a log line contains ${JSON.stringify(secret.slice(0, 12))}…`).toBe(false);
    }
  }
}

async function expectWireRules(response: Response, sentRequestId: string | null): Promise<void> {
  const requestId = response.headers.get('x-request-id');
  expect(requestId, 'X-Request-Id').toBeTruthy();
  if (sentRequestId !== null && /^[A-Za-z0-9._:-]{1,128}$/.test(sentRequestId)) expect(requestId).toBe(sentRequestId);
  expect(response.status, 'never a 500').toBeLessThan(500);
  if (response.status === 204) {
    expect(await response.clone().text()).toBe('');
  } else {
    expect(response.headers.get('content-type')).toMatch(/^application\/json(;|$)/);
  }
}
