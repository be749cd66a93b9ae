import { createHash, randomBytes } from 'node:crypto';
import { refreshTarget, submission } from '../scripts/html-pages';
import { expectJson, PASSWORD, type SeededUser } from './api';
import type { HttpClient, Reply } from './load';
import type { Scenario } from './scenario';

/** Where the benchmark's client says it is: never reached, the code is read from the redirect. */
const REDIRECT_URI = 'https://bench.example/callback';
/**
 * The most codes the exchange scenario is prepared for, per second of its load: a code is single
 * use and lives 60 s, so they are made ahead (outside the measurement) and must all be spent
 * within that minute. Four times the target (at twice it, a quiet run spent them all);
 * running out ends requests in errors, shown in its row.
 */
const CODES_PER_SECOND = 2_000;
const HOPS = 10;

interface OAuthClientDocument {
  data: { attributes: { client_id: string; client_secret: string } };
}
interface TokenAnswer {
  access_token: string;
  refresh_token?: string;
}

/** One user's browser at the service: their cookies, kept by hand. */
class Browser {
  private readonly cookies = new Map<string, string>();

  constructor(private readonly client: HttpClient) {}

  private async send(path: string, form?: URLSearchParams): Promise<Reply> {
    const cookie = [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
    const headers: Record<string, string> = cookie ? { cookie } : {};
    // A form of the service's pages, posted from them: the browser says so.
    if (form) headers['sec-fetch-site'] = 'same-origin';
    const reply = await this.client.send(form ? 'POST' : 'GET', path, { form, headers });
    for (const line of [reply.headers['set-cookie'] ?? []].flat()) {
      const pair = line.split(';')[0] ?? '';
      const at = pair.indexOf('=');
      this.cookies.set(pair.slice(0, at).trim(), pair.slice(at + 1).trim());
    }
    return reply;
  }

  /** Follows the service's redirects and meta refreshes from `path` to the client's redirect URI, or to a page. */
  async visit(path: string, form?: URLSearchParams): Promise<{ left: URL } | { page: Reply; path: string }> {
    let at = path;
    let body = form;
    for (let hop = 0; hop < HOPS; hop++) {
      const reply = await this.send(at, body);
      body = undefined;
      const redirect = reply.status >= 300 && reply.status < 400 ? reply.headers.location : undefined;
      const location = redirect ?? (reply.status === 200 ? refreshTarget(reply.body) : null);
      if (!location) return { page: reply, path: at };
      const next = new URL(location, `http://service.invalid${at}`);
      if (next.href.startsWith(REDIRECT_URI)) return { left: next };
      at = `${next.pathname}${next.search}`;
    }
    throw new Error(`more than ${HOPS} redirects from ${path}`);
  }

  /** An authorization to its code: signs `user` in on the sign-in page and allows on the consent page, if shown. */
  async code(path: string, user: SeededUser): Promise<string> {
    let stop = await this.visit(path);
    for (let page = 0; page < PAGES && 'page' in stop; page++) {
      const consent = /name="decision"/.test(stop.page.body);
      const form = consent
        ? submission(stop.page.body, {}, 'Allow')
        : submission(stop.page.body, { email: user.email, password: PASSWORD });
      const target = new URL(form.action || stop.path, `http://service.invalid${stop.path}`);
      stop = await this.visit(`${target.pathname}${target.search}`, form.body);
    }
    return codeOf(stop);
  }
}

/** The pages an authorization may show before its code: the sign-in form, then the consent question. */
const PAGES = 2;

/** The code in the redirect of an authorization; throws with what the service answered instead. */
function codeOf(stop: Awaited<ReturnType<Browser['visit']>>): string {
  const code = 'left' in stop ? stop.left.searchParams.get('code') : null;
  if (!code) {
    const why = 'left' in stop ? stop.left.search : `${stop.page.status} ${stop.page.body.slice(0, 300)}`;
    throw new Error(`GET /oidc/auth gave no code: ${why}`);
  }
  return code;
}

/**
 * The OpenID provider's scenarios: a first-party confidential client, and per worker a seeded
 * user signed in once through the sign-in page; what each request needs (codes, tokens) is made
 * ahead, outside the measurement.
 */
export function openIdScenarios({
  client,
  adminToken,
  users,
  loadSeconds,
  concurrency,
}: {
  client: HttpClient;
  adminToken: string;
  users: readonly SeededUser[];
  loadSeconds: number;
  concurrency: number;
}): Scenario[] {
  const verifier = randomBytes(32).toString('base64url');
  const challenge = createHash('sha256').update(verifier).digest('base64url');
  /** Made once, when the first worker prepares, and shared by every scenario. */
  let registered: Promise<{ id: string; basic: string }> | undefined;
  const register = async () => {
    const { attributes } = expectJson<OAuthClientDocument>(
      await client.send('POST', '/v1/admin/oauth-clients', {
        token: adminToken,
        json: {
          data: {
            type: 'oauth_clients',
            attributes: {
              name: 'Benchmark',
              type: 'confidential',
              redirect_uris: [REDIRECT_URI],
              scopes: ['openid', 'email', 'profile', 'offline_access'],
              first_party: true,
            },
          },
        },
      }),
      201,
      'POST /v1/admin/oauth-clients',
    ).data;
    const basic = Buffer.from(`${attributes.client_id}:${attributes.client_secret}`).toString('base64');
    return { id: attributes.client_id, basic: `Basic ${basic}` };
  };
  const authorizePath = (id: string, extra: Record<string, string> = {}) =>
    `/oidc/auth?${new URLSearchParams({
      client_id: id,
      redirect_uri: REDIRECT_URI,
      response_type: 'code',
      scope: 'openid email profile',
      code_challenge: challenge,
      code_challenge_method: 'S256',
      ...extra,
    })}`;

  /** Worker `worker`'s user signed in at the service once (their browser kept), and a way to get a code without a page. */
  const signedIn = async (worker: number) => {
    const app = await (registered ??= register());
    const user = users[worker % users.length]!;
    const browser = new Browser(client);
    await browser.code(authorizePath(app.id), user);
    return {
      app,
      /** A code: the user is signed in and the client first-party, so it takes one request unless `extra` asks for a page. */
      code: (extra: Record<string, string> = {}) =>
        browser.code(authorizePath(app.id, { prompt: 'none', ...extra }), user),
    };
  };
  const redeem = async (app: { basic: string }, code: string) =>
    client.send('POST', '/oidc/token', {
      headers: { authorization: app.basic },
      form: new URLSearchParams({
        grant_type: 'authorization_code',
        code,
        redirect_uri: REDIRECT_URI,
        code_verifier: verifier,
      }),
    });
  const tokensOf = (reply: Reply) => expectJson<TokenAnswer>(reply, 200, 'POST /oidc/token');

  return [
    {
      name: 'POST /oidc/token (authorization_code)',
      madeAhead: true,
      note: 'a code redeemed with the client secret and PKCE: ID token signed, access token stored; codes made ahead (GET /oidc/auth with prompt=none)',
      expected: 200,
      prepare: async (worker) => {
        const { app, code } = await signedIn(worker);
        const codes: string[] = [];
        const perWorker = Math.ceil((loadSeconds * CODES_PER_SECOND) / concurrency);
        while (codes.length < perWorker) codes.push(await code());
        return async () => {
          const next = codes.pop();
          if (next === undefined) throw new Error('the codes made ahead ran out: raise CODES_PER_SECOND');
          return (await redeem(app, next)).status;
        };
      },
    },
    {
      name: 'POST /oidc/token (refresh_token)',
      note: 'rotation, one token chain per worker (offline_access)',
      expected: 200,
      prepare: async (worker) => {
        const { app, code } = await signedIn(worker);
        const first = tokensOf(
          await redeem(app, await code({ scope: 'openid email profile offline_access', prompt: 'consent' })),
        );
        let refreshToken = first.refresh_token ?? '';
        return async () => {
          const reply = await client.send('POST', '/oidc/token', {
            headers: { authorization: app.basic },
            form: new URLSearchParams({ grant_type: 'refresh_token', refresh_token: refreshToken }),
          });
          if (reply.status === 200) refreshToken = tokensOf(reply).refresh_token ?? '';
          return reply.status;
        };
      },
    },
    {
      name: 'GET /oidc/userinfo',
      note: "a worker's access token: its grant, its user's claims (email, profile)",
      expected: 200,
      prepare: async (worker) => {
        const { app, code } = await signedIn(worker);
        const { access_token: token } = tokensOf(await redeem(app, await code()));
        return async () => (await client.send('GET', '/oidc/userinfo', { token })).status;
      },
    },
  ];
}
