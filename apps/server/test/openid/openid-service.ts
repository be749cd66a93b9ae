import { createServer, type RequestListener } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { OAuthClientDraft } from '@uas/domain';
import * as oidc from 'openid-client';
import { afterAll, beforeAll } from 'vitest';
import { createHttpServer } from '../../src/http-server';
import { loadConfig } from '../../src/config';
import { type Backend, startTestApplication, type TestApplication } from '../support/test-application';
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

/**
 * The service on `backend`, started before the suite's tests and closed after them; answers how
 * the tests reach it.
 */
export function useOpenIdService(backend: Backend): () => OpenIdService {
  let service: OpenIdService | undefined;
  beforeAll(async () => {
    service = await startOpenIdService(backend);
  }, 60_000);
  afterAll(() => service?.close());
  return () => service!;
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
