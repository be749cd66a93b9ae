import { afterAll, beforeAll, expect, vi } from 'vitest';
import * as client from 'openid-client';
import { AdminClient } from '../support/admin-client';
import type { Backend } from '../support/test-application';
import { type OpenIdService, startOpenIdService } from './openid-service';
import { UserAgent } from './user-agent';

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
