import { OAuth2Server } from 'oauth2-mock-server';

/** Ways the upstream can misbehave in its ID token. */
export type IdTokenTampering = 'nonce' | 'issuer' | 'audience' | 'signature' | 'expired';

/**
 * A real OpenID Connect provider on 127.0.0.1, port 0 (oauth2-mock-server): discovery, JWKS,
 * authorize with PKCE (S256) and nonce, token, userinfo. A test sets the claims its ID tokens
 * carry, what its userinfo answers, and how it misbehaves (a wrong nonce, issuer or audience, a
 * broken signature, an expired token).
 */
export class OidcUpstream {
  private readonly server = new OAuth2Server();
  /** Claims added to every ID token (`sub` included). */
  claims: Record<string, unknown> = { sub: 'upstream-user-1' };
  /** What userinfo answers beside `sub`. */
  userinfo: Record<string, unknown> = {};
  tampering: IdTokenTampering | null = null;

  get issuer(): string {
    return this.server.issuer.url!;
  }

  async start(): Promise<this> {
    await this.server.issuer.keys.generate('RS256');
    this.server.service.on('beforeTokenSigning', (token) => {
      Object.assign(token.payload, this.claims);
      if (this.tampering === 'nonce') token.payload.nonce = 'a-nonce-of-another-attempt';
      if (this.tampering === 'issuer') token.payload.iss = 'http://127.0.0.1:1/another-issuer';
      if (this.tampering === 'audience') token.payload.aud = 'another-client';
      if (this.tampering === 'expired') {
        token.payload.iat = Math.floor(Date.now() / 1000) - 7200;
        token.payload.exp = Math.floor(Date.now() / 1000) - 3600;
      }
    });
    this.server.service.on('beforeResponse', (response) => {
      const body = response.body as { id_token?: string };
      if (this.tampering === 'signature' && body.id_token) {
        const [header, payload, signature] = body.id_token.split('.') as [string, string, string];
        const flipped = signature.startsWith('A') ? `B${signature.slice(1)}` : `A${signature.slice(1)}`;
        body.id_token = `${header}.${payload}.${flipped}`;
      }
    });
    this.server.service.on('beforeUserinfo', (response) => {
      Object.assign(response.body as object, { sub: this.claims.sub }, this.userinfo);
    });
    await this.server.start(0, '127.0.0.1');
    return this;
  }

  stop(): Promise<void> {
    return this.server.stop();
  }
}
