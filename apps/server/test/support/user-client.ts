import { expect } from 'vitest';
import { decodeJwt, decodeProtectedHeader, type JWTPayload } from 'jose';
import type { AdminClient } from './admin-client';
import { scenarioApplication } from './scenario';
import type { Session } from './admin-api';
import { USER_PASSWORD } from './wire';
import { usersDocument } from '@uas/adapters-http/testing';
import type { TestApplication } from './test-application';

/** A user created through the admin API, with the password it logs in with. */
export interface CreatedUser {
  id: string;
  email: string;
  password: string;
  attributes: Record<string, unknown>;
}

/** A user's attributes as the user sees them: without the ban, which only admins see. */
export function withoutAdminOnly<T extends object>(attributes: T): Omit<T, 'banned' | 'banned_until' | 'ban_reason'> {
  const { banned: _, banned_until: __, ban_reason: ___, ...own } = attributes as T & Record<string, unknown>;
  return own;
}

/** The claims and header of a token, read without verifying it. */
export const claimsOf = (token: string): JWTPayload => decodeJwt(token);
export const headerOf = (token: string) => decodeProtectedHeader(token);

/** Unix time in seconds on the application's clock. */
export const nowSeconds = (t: TestApplication): number => Math.floor(t.clock.now().getTime() / 1000);

/**
 * What an end user (or an application acting for one) does, and the admin calls that set the
 * scene, over an AdminClient: every response is held to the wire rules and may show no secret,
 * and every password and token seen is kept out of the logs.
 */
export class UserClient {
  constructor(readonly client: AdminClient) {}

  login(email: string, password: string): Promise<Response> {
    return this.client.login(email, password, {}, '/v1/login');
  }

  /**
   * Logs in and returns the session; the test fails unless login answers 200. A CreatedUser's
   * `attributes` then show the login as the service does, in `last_login`.
   */
  async loginAs(user: Pick<CreatedUser, 'email' | 'password'> & Partial<CreatedUser>): Promise<Session> {
    const session = await this.client.userSession(user.email, user.password);
    if (user.attributes) user.attributes.last_login = this.client.t.clock.now().toISOString();
    return session;
  }

  refresh(refreshToken: string): Promise<Response> {
    return this.client.refresh(refreshToken, '/v1/refresh');
  }

  revoke(refreshToken: string, accessToken: string): Promise<Response> {
    return this.client.send('DELETE', '/v1/refresh', { refreshToken }, accessToken);
  }

  me(accessToken: string): Promise<Response> {
    return this.client.get('/v1/users/me', accessToken);
  }

  /** `extra` adds members to `data` besides `type` and `attributes` (an `id`, say). */
  patchMe(
    accessToken: string,
    attributes: Record<string, unknown>,
    extra: Record<string, unknown> = {},
  ): Promise<Response> {
    return this.client.send('PATCH', '/v1/users/me', usersDocument(attributes, extra), accessToken);
  }

  /** The attributes `GET /v1/users/me` shows (200 required). */
  async stored(accessToken: string): Promise<Record<string, unknown>> {
    const response = await this.me(accessToken);
    expect(response.status).toBe(200);
    return (await response.json()).data.attributes;
  }

  /** A GET, DELETE or JSON request with the admin's bearer token. */
  async asAdmin(method: 'GET' | 'DELETE' | 'PATCH', path: string, body?: unknown): Promise<Response> {
    const token = await this.client.adminToken();
    if (body !== undefined) return this.client.send(method, path, body, token);
    return method === 'DELETE' ? this.client.delete(path, token) : this.client.get(path, token);
  }

  /** Creates a user through the admin API, with a unique email unless one is given. */
  async createUser(attributes: Record<string, unknown> = {}): Promise<CreatedUser> {
    const { id, attributes: asAdminSees } = await this.client.createUser({
      email: `user-${crypto.randomUUID()}@example.com`,
      ...attributes,
    });
    const stored = withoutAdminOnly(asAdminSees);
    return { id, email: stored.email, password: String(attributes.password ?? USER_PASSWORD), attributes: stored };
  }

  /** `PATCH /v1/admin/users/{id}`; 200 required. */
  async adminPatch(id: string, attributes: Record<string, unknown>): Promise<void> {
    const response = await this.asAdmin('PATCH', `/v1/admin/users/${id}`, usersDocument(attributes, { id }));
    expect(response.status, await response.clone().text()).toBe(200);
  }

  async adminDelete(id: string): Promise<void> {
    expect((await this.asAdmin('DELETE', `/v1/admin/users/${id}`)).status).toBe(204);
  }
}

/** The real application for one `describe` (see scenarioApplication), seen by an end user. */
export function userScenario(...args: Parameters<typeof scenarioApplication>): {
  readonly t: TestApplication;
  readonly api: UserClient;
} {
  const scenario = scenarioApplication(...args);
  return {
    get t() {
      return scenario.t;
    },
    get api() {
      return new UserClient(scenario.client);
    },
  };
}
