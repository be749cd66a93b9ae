import { createServer, type RequestListener } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { OAuthClientDraft } from '@uas/domain';
import * as oidc from 'openid-client';
import { refreshTarget } from '../../../../scripts/html-pages';
import { createHttpServer } from '../../src/http-server';
import { loadConfig } from '../../src/config';
import { type Backend, startTestApplication, type TestApplication } from '../support/test-application';
import { CookieJar } from '../support/cookie-jar';
import { sharedStoreEnv } from '../support/two-instances';

/** Where the applications of these suites say they are; the browser stops there, with the code. */
export const APP_CALLBACK = 'https://app.example/callback';
export const APP_SIGNED_OUT = 'https://app.example/signed-out';

/** The service over a real socket, as applications and browsers reach it at PUBLIC_URL. */
export interface OpenIdService {
  t: TestApplication;
  /** PUBLIC_URL: `http://127.0.0.1:<port>/` of the first instance, which every instance shares. */
  url: string;
  /** Where this instance listens (its own port behind the shared PUBLIC_URL). */
  address: string;
  issuer: string;
  close(): Promise<void>;
}

/**
 * Starts the real application on `backend` behind a real HTTP server (the service's own
 * listener, the engine mounted in it), PUBLIC_URL naming that server's port. With `sharing`, it
 * runs over that service's database, key file and PUBLIC_URL: a second instance, reached at
 * another address, as a load balancer would pick it.
 */
export async function startOpenIdService(
  backend: Backend,
  env: Record<string, string> = {},
  sharing?: OpenIdService,
): Promise<OpenIdService> {
  let serve: RequestListener = (_req, res) => void res.writeHead(503).end();
  const server = createServer((req, res) => serve(req, res));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  const url = sharing?.url ?? address;
  const t = await startTestApplication(backend, {
    ...env,
    PUBLIC_URL: url,
    ...(sharing ? sharedStoreEnv(sharing.t) : {}),
  });
  // The service's own listener (its timeouts and the engine's mount), behind the port chosen above.
  const listener = createHttpServer(t.app.fetch, loadConfig(t.env).http, t.openId).listeners('request')[0];
  serve = listener as RequestListener;
  return {
    t,
    url,
    address,
    issuer: url.replace(/\/$/, ''),
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await t.close();
    },
  };
}

/** A user who signs in through the pages, with claims the scopes release. */
export async function createUser(service: OpenIdService, email: string) {
  const user = await service.t.useCases.users.create({
    email,
    password: 'a-long-password-1',
    name: 'Ada Lovelace',
    metadata: { plan: 'pro' },
    app: { roles: ['editor'] },
  });
  return { ...user, password: 'a-long-password-1' };
}

/** A client registered as an admin would, with its secret when confidential. */
export async function registerClient(service: OpenIdService, draft: Partial<OAuthClientDraft> = {}) {
  return service.t.useCases.oauthClients.create({
    name: 'Example App',
    type: 'confidential',
    redirectUris: [APP_CALLBACK],
    postLogoutRedirectUris: [APP_SIGNED_OUT],
    scopes: ['openid', 'email', 'profile', 'metadata', 'app', 'offline_access'],
    ...draft,
  });
}

/**
 * The relying party's view of the service: discovery, then `openid-client` over plain http. With
 * `via`, every request it makes reaches that instance instead (a load balancer's pick).
 */
export async function relyingParty(
  service: OpenIdService,
  clientId: string,
  secret: string | null,
  via?: OpenIdService,
) {
  const auth = secret ? oidc.ClientSecretBasic(secret) : oidc.None();
  const config = await oidc.discovery(new URL(service.issuer), clientId, undefined, auth, {
    execute: [oidc.allowInsecureRequests],
  });
  if (via)
    config[oidc.customFetch] = (url, options) => fetch(url.replace(service.url, via.address), options as RequestInit);
  return config;
}

const MAX_HOPS = 12;

/**
 * A browser without a script engine on the service's pages: keeps cookies, follows redirects and
 * the pages' meta refreshes by hand, and stops at the first URL outside the service (the
 * application's redirect URI), or at a page it is told to stop at.
 */
export class Browser {
  private readonly cookies = new CookieJar();

  /** With `via`, its requests reach that instance of the service (a load balancer's pick). */
  constructor(
    private readonly service: OpenIdService,
    private via: OpenIdService = service,
  ) {}

  /** From now on its requests reach `instance`. */
  switchTo(instance: OpenIdService): this {
    this.via = instance;
    return this;
  }

  /** Opens `start`, signs in with `credentials` when asked, allows consent when asked; answers where it ended. */
  async authorize(
    start: URL | string,
    credentials: { email: string; password: string },
    consent: 'allow' | 'deny' = 'allow',
  ): Promise<URL> {
    let stop = await this.follow(new URL(start));
    for (let hop = 0; hop < MAX_HOPS; hop += 1) {
      if (!stop.response) return stop.at;
      const body = await stop.response.text();
      if (/name="password"/.test(body)) {
        stop = await this.submit(stop.at, { email: credentials.email, password: credentials.password });
      } else if (/name="decision"/.test(body)) {
        stop = await this.submit(stop.at, { decision: consent });
      } else {
        throw new Error(`Stuck at ${stop.at.pathname} (${stop.response.status}): ${body.slice(0, 300)}`);
      }
    }
    throw new Error('Too many pages.');
  }

  /**
   * Follows redirects and meta refreshes from `url`: where it stopped, with the service's answer
   * there, or none when it left the service.
   */
  async follow(url: URL, init: RequestInit = {}): Promise<{ at: URL; response: Response | null }> {
    let at = url;
    let request = init;
    for (let hop = 0; hop < MAX_HOPS; hop += 1) {
      if (!at.href.startsWith(this.service.url)) return { at, response: null };
      const response = await fetch(at.href.replace(this.service.url, this.via.address), {
        ...request,
        redirect: 'manual',
        headers: { ...(request.headers as Record<string, string>), cookie: this.cookies.header },
      });
      this.cookies.keep(response);
      const location = response.headers.get('location') ?? refreshTarget(await response.clone().text());
      if (!location) return { at, response };
      at = new URL(location, at);
      request = {};
    }
    throw new Error('Too many redirects.');
  }

  private submit(at: URL, fields: Record<string, string>) {
    return this.follow(at, {
      method: 'POST',
      body: new URLSearchParams(fields).toString(),
      // As a browser posts a page's form back to the page's own origin.
      headers: { 'content-type': 'application/x-www-form-urlencoded', 'sec-fetch-site': 'same-origin' },
    });
  }
}
