import { expectJson, logIn, PASSWORD, tokensOf, userAttributes, usersDocument, type SeededUser } from './api';
import type { HttpClient, Load } from './load';
import type { Scenario } from './scenario';
import { openIdScenarios } from './openid-scenarios';
import { seedTotpAnswers, totpStepNow, type ServerData, type TotpAnswer } from './second-factor-seed';
import { DOMAINS } from './seed';
import { SoftwareAuthenticator } from '../scripts/software-authenticator';

/** What every scenario works on: the measured server, its admin's token and the seeded users. */
export interface Target {
  client: HttpClient;
  /** A client of its own for the probes, so they never queue behind the load's sockets. */
  probeClient: HttpClient;
  adminToken: string;
  /** How many users were seeded. */
  count: number;
  /** A sample of them, spread over the whole table. */
  users: readonly SeededUser[];
  /** Set apart the users this target creates from another's on the same database (`a`, `b`, …). */
  tag: string;
  /** The load each scenario runs under: the single-use answers it needs are made ahead for it. */
  load: Load;
  /** The server's database and key file, for the records written ahead of the second step's load. */
  server: ServerData;
  /** The origin the server's WebAuthn ceremonies expect (its default: http://localhost:<PORT>). */
  webauthnOrigin: string;
}

/**
 * What the server runs with for the scenarios of the mail-sending endpoints: it trusts the load
 * generator as its proxy, so each request can come from an address of its own, and the per-client
 * limit (MAIL_REQUESTS_PER_MINUTE) is counted, at its full cost, without refusing the load. The
 * hourly budget (MAIL_HOURLY_LIMIT, a thousand by default) is raised: a run queues more than that,
 * and a known address past it would skip the work the scenario is there to measure. The passkey
 * options' per-client limit (PASSKEY_OPTIONS_PER_MINUTE, 30 by default) is raised too: the passkey
 * sign-in's answers are all fetched ahead of the load from the load generator's one address.
 */
export const CLIENT_ADDRESS_ENV = {
  TRUSTED_PROXIES: '127.0.0.1',
  MAIL_HOURLY_LIMIT: '100000000',
  PASSKEY_OPTIONS_PER_MINUTE: '1000000',
};

/** A client address not used before in this run: 10.0.0.1, 10.0.0.2, … */
let clients = 0;
const newClient = () => {
  const n = ++clients;
  return `10.${(n >> 16) & 255}.${(n >> 8) & 255}.${n & 255}`;
};

/**
 * The most requests a second-factor scenario is prepared for, per second of its load: each
 * answer is single use (a TOTP step per factor, a passkey challenge), so they are made ahead, and
 * running out ends the scenario's requests in errors. Beyond the targets, with margin.
 */
const TOTP_ANSWERS_PER_SECOND = 2_500;
const PASSKEY_ANSWERS_PER_SECOND = 1_500;

const ENROL_PASSKEY = { data: { type: 'factors', attributes: { kind: 'webauthn' } } };
interface FactorDocument {
  data: { id: string; attributes: { webauthn: Parameters<SoftwareAuthenticator['register']>[0] } };
}
interface PasskeyOptionsDocument {
  data: { attributes: { webauthn: Parameters<SoftwareAuthenticator['authenticate']>[0] } };
}

/** Takes the next prepared answer; none left fails the request, which the row then shows. */
function next<T>(answers: T[]): T {
  const answer = answers.pop();
  if (answer === undefined) throw new Error('the answers prepared ahead ran out: raise the answers per second');
  return answer;
}

const pick = <T>(items: readonly T[]): T => items[Math.floor(Math.random() * items.length)] as T;
const random = (below: number) => Math.floor(Math.random() * below);
const PAGE_SIZE = 20;

/**
 * The scenarios, in the order they run. Seeded emails are `user0001234@org34.example`: a domain
 * (`@org34.`) matches 1 % of the users, a 6-digit prefix (`user000123`) 10 of them.
 */
export function scenarios({
  client,
  probeClient,
  adminToken,
  count,
  users,
  tag,
  load,
  server,
  webauthnOrigin,
}: Target): Scenario[] {
  const admin = { token: adminToken };
  const someUser = () => pick(users);
  const userToken = async (worker: number) => logIn(client, users[worker % users.length]!.email, PASSWORD);
  const list = (query: string) => async () => (await client.send('GET', `/v1/admin/users${query}`, admin)).status;
  const search = (term: () => string) => async () =>
    (await client.send('GET', `/v1/admin/users?search%5Bemail%5D=${encodeURIComponent(term())}`, admin)).status;
  const domain = (n: number) => `@org${String(n).padStart(2, '0')}.`;
  const oneDomain = () => domain(random(DOMAINS));
  // Every domain has at least this many pages of matches (the last may be short).
  const domainPages = Math.max(1, Math.ceil(Math.floor(count / DOMAINS) / PAGE_SIZE));
  /** The domains not yet searched once by `searchedOnce`'s workers, which share them out. */
  let unsearched = 0;
  const searchedOnce = async () => {
    while (unsearched < DOMAINS) await search(() => domain(unsearched++))();
  };
  const loadSeconds = (load.warmUpMs + load.durationMs) / 1000;
  /** Shared by the workers: written once, when the scenario's first worker prepares. */
  let totpAnswers: Promise<TotpAnswer[]> | undefined;
  return [
    {
      name: 'GET /v1/admin/users',
      note: 'first page of 20, with the exact total',
      expected: 200,
      prepare: async () => list(''),
    },
    {
      name: 'GET /v1/admin/users?page[number]=…',
      note: 'a random page of 20 among all of them, with the total',
      expected: 200,
      prepare: async () => async () => list(`?page%5Bnumber%5D=${1 + random(Math.ceil(count / PAGE_SIZE))}`)(),
    },
    {
      name: 'GET /v1/admin/users?search[email]=@orgNN.',
      note: 'one email domain of 100: 1 % of the users match; first page and total',
      expected: 200,
      prepare: async () => search(oneDomain),
      probes: [
        {
          name: 'GET /health',
          expected: 200,
          prepare: async () => async () => (await probeClient.send('GET', '/health')).status,
        },
        {
          name: 'GET /v1/users/me',
          expected: 200,
          prepare: async (worker) => {
            const { accessToken } = await userToken(worker);
            return async () => (await probeClient.send('GET', '/v1/users/me', { token: accessToken })).status;
          },
        },
      ],
    },
    {
      name: 'GET /v1/admin/users?search[email]=@orgNN.&page[number]=…',
      note: 'one email domain of 100 (1 % match), a page at random among all its pages, with the total; each domain searched once first, unmeasured (the row above measures that)',
      expected: 200,
      prepare: async () => {
        await searchedOnce();
        return async () =>
          list(`?search%5Bemail%5D=${encodeURIComponent(oneDomain())}&page%5Bnumber%5D=${1 + random(domainPages)}`)();
      },
    },
    {
      name: 'GET /v1/admin/users?search[email]=userNNNNNN',
      note: 'a 6-digit prefix: a handful (≤ 10) match',
      expected: 200,
      prepare: async () => search(() => `user${String(random(Math.ceil(count / 10))).padStart(6, '0')}`),
    },
    {
      name: 'GET /v1/admin/users?search[email]=N@',
      note: 'two characters, too short for a trigram: 10 % match',
      expected: 200,
      prepare: async () => search(() => `${random(10)}@`),
    },
    {
      name: 'GET /v1/admin/stats',
      note: "the overview: user totals and 30 days' activity, from counters",
      expected: 200,
      prepare: async () => async () => (await client.send('GET', '/v1/admin/stats', admin)).status,
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
          const json = {
            data: { type: 'users', id, attributes: { metadata: { theme: 'dark', visits: ++n, worker } } },
          };
          return (await client.send('PATCH', `/v1/admin/users/${id}`, { ...admin, json })).status;
        };
      },
    },
    {
      name: 'PATCH /v1/users/me',
      note: 'a user changes their own name: one row and its audit event',
      expected: 200,
      prepare: async (worker) => {
        const { accessToken } = await userToken(worker);
        let n = 0;
        return async () => {
          const json = { data: { type: 'users', attributes: { name: `Worker ${worker} ${++n}` } } };
          return (await client.send('PATCH', '/v1/users/me', { token: accessToken, json })).status;
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
          return (
            await client.send('POST', '/v1/admin/users', {
              ...admin,
              json: usersDocument(userAttributes(`new${tag}${worker}x`, n++)),
            })
          ).status;
        };
      },
    },
    {
      name: 'POST /v1/recover (known)',
      note: "a seeded user's address, each from a new client address: a token and a message queued",
      expected: 202,
      prepare: async (worker) => {
        let n = worker;
        return async () => {
          const { email } = users[n++ % users.length]!;
          return (await client.send('POST', '/v1/recover', { json: { email }, from: newClient() })).status;
        };
      },
    },
    {
      name: 'POST /v1/recover (unknown)',
      note: 'an address nobody has, each from a new client address: nothing to send',
      expected: 202,
      prepare: async (worker) => {
        let n = 0;
        return async () => {
          const email = `nobody${tag}${worker}x${n++}@bench.example`;
          return (await client.send('POST', '/v1/recover', { json: { email }, from: newClient() })).status;
        };
      },
    },
    {
      name: 'POST /v1/signup',
      note: 'bcrypt-bound: a new address, each from a new client address; hashes at cost 10',
      expected: 202,
      prepare: async (worker) => {
        let n = 0;
        return async () => {
          const { email, password, name } = userAttributes(`signup${tag}${worker}x`, n++);
          const json = usersDocument({ email, password, name });
          return (await client.send('POST', '/v1/signup', { json, from: newClient() })).status;
        };
      },
    },
    {
      name: 'POST /v1/login',
      note: 'bcrypt-bound: verifies at cost 10, a seeded user',
      expected: 200,
      prepare: async (worker) => {
        let n = worker;
        return async () => {
          const { email } = users[n++ % users.length]!;
          return (await client.send('POST', '/v1/login', { json: usersDocument({ email, password: PASSWORD }) }))
            .status;
        };
      },
    },
    // Before the second factor's: their password sign-in at the provider's page is one step.
    ...openIdScenarios({ client, adminToken, users, loadSeconds, concurrency: load.concurrency }),
    // Last: the passkey's users are seeded users, whose password login then asks for a second step.
    {
      name: 'POST /v1/login/mfa (TOTP)',
      madeAhead: true,
      note: 'second step with a TOTP code; challenge, factor and code made ahead (one factor per answer: a step is accepted once)',
      expected: 200,
      prepare: async () => {
        totpAnswers ??= seedTotpAnswers(server, Math.ceil(loadSeconds * TOTP_ANSWERS_PER_SECOND), tag);
        const answers = await totpAnswers;
        return async () => {
          const { challenge, codes } = next(answers);
          return (await client.send('POST', '/v1/login/mfa', { json: { challenge, code: codes.get(totpStepNow()) } }))
            .status;
        };
      },
    },
    {
      name: 'POST /v1/login/passkey',
      madeAhead: true,
      note: "passwordless, a synced passkey per worker; its options fetched and signed ahead by the tests' software authenticator",
      expected: 200,
      prepare: async (worker) => {
        // Users of this server's own: once enrolled, a user's password login asks for a second
        // step, so servers sharing the database (--pooler, --compare-node) cannot share them.
        const { accessToken: token } = await userToken(worker + load.concurrency * (tag.charCodeAt(0) - 97));
        const authenticator = new SoftwareAuthenticator({ backedUp: true });
        const enrolled = expectJson<FactorDocument>(
          await client.send('POST', '/v1/users/me/factors', { token, json: ENROL_PASSKEY }),
          201,
          'POST /v1/users/me/factors',
        ).data;
        const credential = authenticator.register(enrolled.attributes.webauthn, webauthnOrigin);
        expectJson(
          await client.send('POST', `/v1/users/me/factors/${enrolled.id}/verify`, { token, json: { credential } }),
          200,
          'POST /v1/users/me/factors/{id}/verify',
        );
        const answers: unknown[] = [];
        const perWorker = Math.ceil((loadSeconds * PASSKEY_ANSWERS_PER_SECOND) / load.concurrency);
        while (answers.length < perWorker) {
          const options = expectJson<PasskeyOptionsDocument>(
            await client.send('POST', '/v1/login/passkey/options'),
            200,
            'POST /v1/login/passkey/options',
          ).data.attributes.webauthn;
          answers.push(authenticator.authenticate(options, webauthnOrigin));
        }
        return async () =>
          (await client.send('POST', '/v1/login/passkey', { json: { credential: next(answers) } })).status;
      },
    },
  ];
}
