import type { SessionDocument } from '@uas/client';
import type { HttpClient, Reply } from './load';

/** The password of every user the benchmark creates. */
export const PASSWORD = 'bench-password-1';

export interface Tokens {
  accessToken: string;
  refreshToken: string;
}

export interface SeededUser {
  id: string;
  email: string;
}

export const usersDocument = (attributes: Record<string, unknown>) => ({ data: { type: 'users', attributes } });

/** The attributes of the n-th user a run creates under `prefix`, with a little metadata, as an application would. */
export const userAttributes = (prefix: string, n: number) => ({
  name: `${prefix} ${n}`,
  email: `${prefix}${String(n).padStart(5, '0')}@bench.example`,
  password: PASSWORD,
  metadata: { theme: n % 2 ? 'dark' : 'light', locale: 'en' },
  app: { plan: 'free' },
});

/** The JSON of a reply with status `expected`; throws with the status and body otherwise. */
export function expectJson<T>(reply: Reply, expected: number, what: string): T {
  if (reply.status !== expected) throw new Error(`${what}: ${reply.status} ${reply.body.slice(0, 300)}`);
  return JSON.parse(reply.body) as T;
}

/** The tokens of a 200 session record (login, refresh). */
export function tokensOf(reply: Reply, what: string): Tokens {
  const { attributes } = expectJson<SessionDocument>(reply, 200, what).data;
  return { accessToken: attributes.access_token, refreshToken: attributes.refresh_token };
}

/** POST /v1/login, or the admin's login at `path`. */
export async function logIn(client: HttpClient, email: string, password: string, path = '/v1/login'): Promise<Tokens> {
  return tokensOf(await client.send('POST', path, { json: usersDocument({ email, password }) }), `POST ${path}`);
}
