import { logIn, PASSWORD, tokensOf, userAttributes, usersDocument, type SeededUser } from './api';
import type { HttpClient, Step } from './load';

/** What every scenario works on: the measured server, its admin's token and the seeded users. */
export interface Target {
  client: HttpClient;
  adminToken: string;
  users: readonly SeededUser[];
}

export interface Scenario {
  name: string;
  /** What a request does, in a few words, for the table. */
  note: string;
  expected: number;
  /** The step of one worker; any set-up it needs (a login) happens here, unmeasured. */
  prepare(worker: number): Promise<Step>;
}

const pick = <T>(items: readonly T[]): T => items[Math.floor(Math.random() * items.length)] as T;

/**
 * The scenarios, in the order they run. POST /v1/admin/users comes before POST /v1/login, which
 * logs in as the users it created: theirs are the only hashes of the default cost 10 (the seeded
 * users were created with cost 4, to seed quickly).
 */
export function scenarios({ client, adminToken, users }: Target): Scenario[] {
  const admin = { token: adminToken };
  const created: string[] = [];
  const someUser = () => pick(users);
  const userToken = async (worker: number) => logIn(client, users[worker % users.length]!.email, PASSWORD);
  return [
    {
      name: 'GET /v1/admin/users',
      note: 'first page of 20, with the total',
      expected: 200,
      prepare: async () => async () => (await client.send('GET', '/v1/admin/users', admin)).status,
    },
    {
      name: 'GET /v1/admin/users?search[email]=…',
      note: 'a random 4-digit run of the seeded emails (user04217@…): ~11 of 10,000 match',
      expected: 200,
      prepare: async () => async () => {
        const term = String(Math.floor((Math.random() * users.length) / 10)).padStart(4, '0');
        return (await client.send('GET', `/v1/admin/users?search%5Bemail%5D=${term}`, admin)).status;
      },
    },
    {
      name: 'GET /v1/admin/users/{id}',
      note: 'a random seeded user',
      expected: 200,
      prepare: async () => async () => (await client.send('GET', `/v1/admin/users/${someUser().id}`, admin)).status,
    },
    {
      name: 'PATCH /v1/admin/users/{id}',
      note: 'metadata only, a random seeded user',
      expected: 200,
      prepare: async (worker) => {
        let n = 0;
        return async () => {
          const { id } = someUser();
          const json = { data: { type: 'users', id, attributes: { metadata: { theme: 'dark', visits: ++n, worker } } } };
          return (await client.send('PATCH', `/v1/admin/users/${id}`, { ...admin, json })).status;
        };
      },
    },
    {
      name: 'GET /v1/users/me',
      note: 'user token: signature and session check',
      expected: 200,
      prepare: async (worker) => {
        const { accessToken } = await userToken(worker);
        return async () => (await client.send('GET', '/v1/users/me', { token: accessToken })).status;
      },
    },
    {
      name: 'POST /v1/refresh',
      note: 'rotation, one token chain per worker',
      expected: 200,
      prepare: async (worker) => {
        let { refreshToken } = await userToken(worker);
        return async () => {
          const reply = await client.send('POST', '/v1/refresh', { json: { refreshToken } });
          if (reply.status === 200) refreshToken = tokensOf(reply, 'POST /v1/refresh').refreshToken;
          return reply.status;
        };
      },
    },
    {
      name: 'POST /v1/admin/users',
      note: 'bcrypt-bound: hashes at cost 10',
      expected: 201,
      prepare: async (worker) => {
        let n = 0;
        return async () => {
          const attributes = userAttributes(`new${worker}x`, n++);
          const reply = await client.send('POST', '/v1/admin/users', { ...admin, json: usersDocument(attributes) });
          if (reply.status === 201) created.push(attributes.email);
          return reply.status;
        };
      },
    },
    {
      name: 'POST /v1/login',
      note: 'bcrypt-bound: verifies at cost 10',
      expected: 200,
      prepare: async (worker) => {
        if (created.length === 0) throw new Error('POST /v1/login needs the users POST /v1/admin/users created.');
        let n = worker;
        return async () => {
          const email = created[n++ % created.length]!;
          return (await client.send('POST', '/v1/login', { json: usersDocument({ email, password: PASSWORD }) })).status;
        };
      },
    },
  ];
}
