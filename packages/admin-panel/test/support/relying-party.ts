import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import * as client from 'openid-client';

/** What the application got back from the service for one sign-in. */
export interface RelyingPartyTokens {
  sub: string;
  accessToken: string;
  refreshToken: string | undefined;
}

/**
 * A tiny web application on loopback that signs its users in through the service with
 * openid-client, as any application would: `/login` sends the browser to the service's
 * authorization endpoint (PKCE S256, state, nonce), `/callback` redeems the code and says who
 * signed in. The tokens it received are kept for the test to check and use.
 */
export class RelyingParty {
  private server: Server | undefined;
  private config: client.Configuration | undefined;
  private readonly pending = new Map<string, { verifier: string; nonce: string }>();
  readonly received: RelyingPartyTokens[] = [];
  origin = '';
  redirectUri = '';

  /** Listens on a free port of 127.0.0.1 (its `redirect_uri` is known then, before the client is registered). */
  async listen(): Promise<void> {
    const server = createServer((request, response) => {
      this.handle(request.url ?? '/')
        .then(({ status, headers, body }) => response.writeHead(status, headers).end(body))
        .catch((error: unknown) => {
          response.writeHead(500, { 'Content-Type': 'text/plain' }).end(`Sign-in failed: ${String(error)}`);
        });
    });
    this.server = server;
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    this.origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    this.redirectUri = `${this.origin}/callback`;
  }

  /** Discovers the service (its issuer: PUBLIC_URL without the slash) as the registered public client. */
  async discover(issuer: string, clientId: string): Promise<void> {
    this.config = await client.discovery(new URL(issuer), clientId, undefined, client.None(), {
      execute: [client.allowInsecureRequests],
    });
  }

  /** A new access token for a refresh token; throws what openid-client throws when the service refuses. */
  refresh(refreshToken: string): Promise<client.TokenEndpointResponse> {
    return client.refreshTokenGrant(this.configuration(), refreshToken);
  }

  /** The user's claims at the userinfo endpoint, with an access token the service issued. */
  userInfo(accessToken: string, sub: string): Promise<client.UserInfoResponse> {
    return client.fetchUserInfo(this.configuration(), accessToken, sub);
  }

  async close(): Promise<void> {
    await new Promise((resolve) => this.server?.close(resolve));
  }

  private configuration(): client.Configuration {
    if (!this.config) throw new Error('the relying party has not discovered the service');
    return this.config;
  }

  private async handle(path: string): Promise<{ status: number; headers: Record<string, string>; body: string }> {
    const url = new URL(path, this.origin);
    if (url.pathname === '/login') {
      const verifier = client.randomPKCECodeVerifier();
      const state = client.randomState();
      const nonce = client.randomNonce();
      this.pending.set(state, { verifier, nonce });
      const authorization = client.buildAuthorizationUrl(this.configuration(), {
        redirect_uri: this.redirectUri,
        scope: url.searchParams.get('scope') ?? 'openid email',
        code_challenge: await client.calculatePKCECodeChallenge(verifier),
        code_challenge_method: 'S256',
        state,
        nonce,
        prompt: 'consent',
      });
      return { status: 302, headers: { Location: authorization.href }, body: '' };
    }
    if (url.pathname === '/callback') {
      const state = url.searchParams.get('state') ?? '';
      const expected = this.pending.get(state);
      if (!expected) return page(400, 'Unknown state');
      this.pending.delete(state);
      if (url.searchParams.has('error')) return page(200, `Refused: ${url.searchParams.get('error')}`);
      const tokens = await client.authorizationCodeGrant(this.configuration(), url, {
        pkceCodeVerifier: expected.verifier,
        expectedState: state,
        expectedNonce: expected.nonce,
      });
      const claims = tokens.claims();
      if (!claims) return page(400, 'No ID token');
      this.received.push({
        sub: claims.sub,
        accessToken: tokens.access_token,
        refreshToken: tokens.refresh_token,
      });
      return page(200, `Signed in as ${claims.sub}`);
    }
    return page(404, 'Not found');
  }
}

const page = (status: number, text: string) => ({
  status,
  headers: { 'Content-Type': 'text/html; charset=utf-8' },
  body: `<!doctype html><html lang="en"><title>Relying party</title><link rel="icon" href="data:,"><h1>${text.replace(/[<&]/g, '')}</h1></html>`,
});
