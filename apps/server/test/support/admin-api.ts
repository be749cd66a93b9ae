import { readFile } from 'node:fs/promises';
import type { SessionDocument, UserListDocument } from '@uas/client';
import { expect } from 'vitest';
import type { AdminCredentials } from '@uas/domain';
import { bearer, jsonInit, loginDocument, usersDocument } from '@uas/adapters-http/testing';
import type { ServerProcess } from '../../../../scripts/release-process';

/** The API of a running server process, as a client over HTTP sees it. */
type Server = Pick<ServerProcess, 'fetch'>;

/** The tokens of a session record (spec 2.2), as login and refresh return it. */
export interface Session {
  /** The account's id, as the session record names it. */
  id: string;
  accessToken: string;
  refreshToken: string;
  accessTokenExpiry: number;
}

/** The admin credentials a server wrote to (or read from) its key file. */
export async function readAdminKeyFile(path: string): Promise<AdminCredentials> {
  return JSON.parse(await readFile(path, 'utf8')) as AdminCredentials;
}

export const adminLogin = (server: Server, { email, password }: AdminCredentials) =>
  server.fetch('/v1/admin/login', jsonInit('POST', loginDocument(email, password)));

export const userLogin = (server: Server, { email, password }: { email: string; password: string }) =>
  server.fetch('/v1/login', jsonInit('POST', loginDocument(email, password)));

/** Logs in and expects 200: the admin's id and tokens. */
export async function loginAsAdmin(server: Server, credentials: AdminCredentials): Promise<Session> {
  return sessionOf(await adminLogin(server, credentials));
}

/** The tokens of a 200 login or refresh response; fails the test on any other answer. */
export async function sessionOf(response: Response): Promise<Session> {
  expect(response.status, await response.clone().text()).toBe(200);
  const { data } = (await response.json()) as SessionDocument;
  return {
    id: data.id,
    accessToken: data.attributes.access_token,
    refreshToken: data.attributes.refresh_token,
    accessTokenExpiry: data.attributes.access_token_expiry,
  };
}

export const refresh = (server: Server, refreshToken: string) =>
  server.fetch('/v1/admin/refresh', jsonInit('POST', { refreshToken }));

export const revoke = (server: Server, accessToken: string, refreshToken: string) =>
  server.fetch('/v1/admin/refresh', jsonInit('DELETE', { refreshToken }, bearer(accessToken)));

export const logout = (server: Server, session: Session) =>
  server.fetch(`/v1/admin/logout/${session.id}`, { method: 'DELETE', headers: bearer(session.accessToken) });

export const createUser = (server: Server, accessToken: string, attributes: Record<string, unknown>) =>
  server.fetch('/v1/admin/users', jsonInit('POST', usersDocument(attributes), bearer(accessToken)));

export const listUsers = (server: Server, accessToken: string) =>
  server.fetch('/v1/admin/users', { headers: bearer(accessToken) });

/** Every page of the user list, as emails, with `meta.total`. */
export async function listUserEmails(
  server: Server,
  accessToken: string,
): Promise<{ emails: string[]; total: number }> {
  const emails: string[] = [];
  for (let page = 1; ; page++) {
    const response = await server.fetch(`/v1/admin/users?page[size]=100&page[number]=${page}`, {
      headers: bearer(accessToken),
    });
    expect(response.status).toBe(200);
    const body = (await response.json()) as UserListDocument;
    emails.push(...body.data.map((user) => user.attributes.email));
    if (body.data.length < 100) return { emails, total: body.meta.total };
  }
}
