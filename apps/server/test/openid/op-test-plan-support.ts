import { afterAll, beforeAll, expect, vi } from 'vitest';
import * as client from 'openid-client';
import { postForms, refreshTarget, submission } from '../../../../scripts/html-pages';
import { AdminClient } from '../support/admin-client';
import { CookieJar } from '../support/cookie-jar';
import type { Backend } from '../support/test-application';
import { type OpenIdService, startOpenIdService } from './openid-service';

/** Where a trip through the service ended. */
export type Stop =
  /** The browser was sent out of the service: to the client's redirect URI (a code or an error), or a logout's return. */
  | { kind: 'left'; url: URL }
  /** A page of the service (a sign-in form, a consent page, an error page), with the last answer. */
  | { kind: 'page'; url: URL; status: number; html: string; headers: Headers };

const HOPS = 12;

/**
 * A browser without a script engine, over real HTTP: follows the service's redirects and meta
 * refreshes by hand and keeps its cookies (each by name, as the service set them), stops at the
 * first address outside the service or at a page.
 */
export class UserAgent {
  private readonly cookies = new CookieJar();

  constructor(readonly origin: string) {}

  /** One request to the service, its cookies sent and kept, redirects not followed. */
  async request(url: string | URL, form?: URLSearchParams): Promise<Response> {
    const headers: Record<string, string> = {};
    if (this.cookies.size > 0) headers.Cookie = this.cookies.header;
    // A form of the service's pages, posted from them: the browser says so with Origin.
    if (form) Object.assign(headers, { 'Content-Type': 'application/x-www-form-urlencoded', Origin: this.origin });
    const response = await fetch(url, {
      method: form ? 'POST' : 'GET',
      headers,
      body: form?.toString(),
      redirect: 'manual',
    });
    this.cookies.keep(response);
    return response;
  }

  /** Navigates to `start` (or posts `form` to it) and follows the service's redirects to a stop. */
  async navigate(start: string | URL, form?: URLSearchParams): Promise<Stop> {
    let url = new URL(start, this.origin);
    let body = form;
    for (let hop = 0; hop < HOPS; hop++) {
      const response = await this.request(url, body);
      body = undefined;
      const redirect = response.status >= 300 && response.status < 400 ? response.headers.get('location') : null;
      let location = redirect;
      if (redirect === null) {
        const html = await response.text();
        location = response.status === 200 ? refreshTarget(html) : null;
        if (location === null) return { kind: 'page', url, status: response.status, html, headers: response.headers };
      } else await response.body?.cancel();
      url = new URL(location!, url);
      if (url.origin !== this.origin) return { kind: 'left', url };
    }
    throw new Error(`more than ${HOPS} redirects from ${start}`);
  }

  /** Submits the page's form (the one whose button reads `button`, else the first) with `values` filled in. */
  submit(page: Stop, values: Record<string, string> = {}, button?: string): Promise<Stop> {
    if (page.kind !== 'page') throw new Error(`no page to submit: the browser left for ${page.url}`);
    const { action, body } = submission(page.html, values, button);
    return this.navigate(new URL(action || page.url.href, page.url), body);
  }
}

/** The address the browser was sent to outside the service; fails the test on a page. */
export function left(stop: Stop): URL {
  expect(stop.kind, stop.kind === 'page' ? `${stop.status} at ${stop.url}: ${stop.html.slice(0, 500)}` : '').toBe(
    'left',
  );
  return (stop as Extract<Stop, { kind: 'left' }>).url;
}

/**
 * The relying party's view of the service, through openid-client's discovery, over plain http on
 * loopback. With `via`, every request goes to that origin instead of the issuer's (another
 * instance behind the same PUBLIC_URL, as a load balancer would pick it).
 */
function discover(issuer: string, clientId: string, auth: client.ClientAuth, via?: string) {
  const options: client.DiscoveryRequestOptions = { execute: [client.allowInsecureRequests] };
  if (via !== undefined) {
    options[client.customFetch] = (url, init) => fetch(url.replace(new URL(issuer).origin, via), init as RequestInit);
  }
  return client.discovery(new URL(issuer), clientId, undefined, auth, options);
}

/** A client as the admin API registered it: its id, and its secret when it is confidential. */
export interface RegisteredClient {
  clientId: string;
  clientSecret: string | null;
  redirectUri: string;
}

/** Registers a client through the admin API (POST /v1/admin/oauth-clients); fails the test unless 201. */
export async function registerClient(
  admin: AdminClient,
  attributes: Record<string, unknown> & { redirect_uris: string[] },
): Promise<RegisteredClient> {
  const response = await admin.send(
    'POST',
    '/v1/admin/oauth-clients',
    { data: { type: 'oauth_clients', attributes } },
    await admin.adminToken(),
  );
  expect(response.status, await response.clone().text()).toBe(201);
  const created = (await response.json()).data.attributes as { client_id: string; client_secret?: string | null };
  return {
    clientId: created.client_id,
    clientSecret: created.client_secret ?? null,
    redirectUri: attributes.redirect_uris[0]!,
  };
}

/** What the relying party keeps while the browser is away: the checks openid-client makes of the answer. */
export interface PendingSignIn {
  url: URL;
  checks: client.AuthorizationCodeGrantChecks;
}

/**
 * openid-client as a relying party of the service: a client's configuration from discovery (its
 * secret sent as HTTP Basic, as form fields with `post`, none for a public client), and the
 * requests it builds.
 */
export class RelyingParty {
  private constructor(
    readonly config: client.Configuration,
    readonly registered: RegisteredClient,
  ) {}

  /** `via`: the origin of the instance its requests go to, when not the issuer's. */
  static async of(
    issuer: string,
    registered: RegisteredClient,
    { auth = 'basic', via }: { auth?: 'basic' | 'post'; via?: string } = {},
  ) {
    const { clientId, clientSecret } = registered;
    const method =
      clientSecret === null
        ? client.None()
        : auth === 'basic'
          ? client.ClientSecretBasic(clientSecret)
          : client.ClientSecretPost(clientSecret);
    return new RelyingParty(await discover(issuer, clientId, method, via), registered);
  }

  /**
   * An authorization request with a fresh state, nonce and PKCE pair (S256), `parameters` added
   * or overriding (`nonce: ''` leaves the nonce out), and the checks its answer must pass.
   */
  async request(parameters: Record<string, string> = {}): Promise<PendingSignIn> {
    const pkceCodeVerifier = client.randomPKCECodeVerifier();
    const expectedState = client.randomState();
    const nonce = parameters.nonce ?? client.randomNonce();
    const all: Record<string, string> = {
      redirect_uri: this.registered.redirectUri,
      scope: 'openid',
      code_challenge: await client.calculatePKCECodeChallenge(pkceCodeVerifier),
      code_challenge_method: 'S256',
      state: expectedState,
      nonce,
      ...parameters,
    };
    if (all.nonce === '') delete all.nonce;
    const url = client.buildAuthorizationUrl(this.config, all);
    return {
      url,
      checks: {
        pkceCodeVerifier,
        expectedState,
        ...(all.nonce ? { expectedNonce: all.nonce } : {}),
        idTokenExpected: true,
      },
    };
  }

  /** Redeems the code the browser came back with: openid-client checks state, iss, the ID token and its nonce. */
  redeem(callback: URL, { checks }: PendingSignIn) {
    return client.authorizationCodeGrant(this.config, callback, checks);
  }
}

/** A user of the tests: the address and password the sign-in page is given. */
export interface TestUser {
  id: string;
  email: string;
  password: string;
}

/**
 * Walks the browser through an authorization: `start` (the authorization request), the sign-in
 * page if the service shows one (filled with `user`'s email and password), the consent page if
 * it shows one (allowed), to where the service sends the browser back. Answers that address and
 * whether each page was shown.
 */
export async function authorize(agent: UserAgent, start: URL, user: TestUser) {
  let stop = await agent.navigate(start);
  const shown = { signIn: false, consent: false };
  if (stop.kind === 'page' && isSignInPage(stop)) {
    shown.signIn = true;
    stop = await agent.submit(stop, { email: user.email, password: user.password });
  }
  if (stop.kind === 'page' && isConsentPage(stop)) {
    shown.consent = true;
    stop = await agent.submit(stop, {}, consentButton(stop, /allow/i));
  }
  return { callback: left(stop), shown };
}

const isSignInPage = (stop: Stop & { kind: 'page' }) => stop.status === 200 && /name="password"/.test(stop.html);
const isConsentPage = (stop: Stop & { kind: 'page' }) => stop.status === 200 && stop.url.pathname.endsWith('/consent');
function consentButton(stop: Stop & { kind: 'page' }, label: RegExp): string {
  const button = postForms(stop.html)
    .flatMap((form) => [...form.buttons.keys()])
    .find((text) => label.test(text));
  if (!button) throw new Error(`no ${label} button on the consent page: ${stop.html.slice(0, 500)}`);
  return button;
}

/** The service as the tests reach it: its issuer, where each instance listens, its admin, and a new browser. */
export interface OpenIdProvider {
  /** PUBLIC_URL without its trailing slash; the first instance listens there. */
  issuer: string;
  /** Each instance's origin (the first is the issuer's). */
  origins: string[];
  /** The admin API, through the first instance. */
  admin: AdminClient;
  /** A new browser, without cookies, at the issuer. */
  agent(): UserAgent;
  /** Moves every clock of the service forward: its own, and the engine's (which reads Date). */
  advanceSeconds(seconds: number): void;
}

/**
 * `instances` instances of the real application over one fresh database on `backend` (more than
 * one only on PostgreSQL), each behind a socket of its own on 127.0.0.1, all naming the first
 * one's address as PUBLIC_URL (as behind a load balancer); started before the suite's tests and
 * stopped after them. Returns an accessor for use inside tests and hooks.
 */
export function useOpenIdProviders(backend: Backend, instances = 1): () => OpenIdProvider {
  const started: OpenIdService[] = [];
  let provider: OpenIdProvider | undefined;
  beforeAll(async () => {
    const first = await startOpenIdService(backend);
    started.push(first);
    for (let n = 1; n < instances; n++) started.push(await startOpenIdService(backend, {}, first));
    // Date moves for the engine; the service's own clock is moved with it.
    vi.useFakeTimers({ toFake: ['Date'], shouldAdvanceTime: true });
    provider = {
      issuer: first.issuer,
      origins: started.map(({ address }) => new URL(address).origin),
      admin: new AdminClient(first.t),
      agent: () => new UserAgent(first.issuer),
      advanceSeconds(seconds) {
        vi.setSystemTime(Date.now() + seconds * 1000);
        for (const { t } of started) t.clock.advance(seconds);
      },
    };
  }, 60_000);
  afterAll(async () => {
    vi.useRealTimers();
    for (const instance of started.reverse()) await instance.close();
  });
  return () => {
    if (!provider) throw new Error('The OpenID provider did not start.');
    return provider;
  };
}

/** One instance on SQLite or PostgreSQL: what most suites need. */
export const useOpenIdProvider = (backend: Backend) => useOpenIdProviders(backend, 1);
