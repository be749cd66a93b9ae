import { randomBytes } from 'node:crypto';
import { exportJWK, generateKeyPair, SignJWT } from 'jose';
import { answerJson, encodeHtml, pkceMatches, startLoopbackServer } from './fake-provider-server';

/**
 * An Apple-shaped OpenID Connect provider on 127.0.0.1: discovery, keys, an authorization
 * endpoint that answers with a page POSTing the result to the redirect URI (`form_post`, with
 * the `user` JSON holding the name on an account's first sign-in only), and a token endpoint
 * (client secret in the body, PKCE checked) whose ID tokens carry `email_verified` as a string.
 */
export class AppleFake {
  sub = '001234.abcdef.1234';
  email = 'private-relay@privaterelay.example.com';
  /** As Apple sends it: the string "true" or "false". */
  emailVerified: string | boolean = 'true';
  private readonly codes = new Map<string, { challenge: string; nonce: string; redirectUri: string }>();
  private readonly signedIn = new Set<string>();
  /** The path of every request it got, in order. */
  readonly requests: string[] = [];
  private server: Awaited<ReturnType<typeof startLoopbackServer>> | null = null;

  constructor(
    readonly clientId: string,
    readonly clientSecret: string,
  ) {}

  get issuer(): string {
    return this.server!.origin;
  }

  async start(): Promise<this> {
    const { privateKey, publicKey } = await generateKeyPair('RS256');
    const jwk = { ...(await exportJWK(publicKey)), kid: 'apple-fake-key', alg: 'RS256', use: 'sig' };
    this.server = await startLoopbackServer(async (request, response) => {
      this.requests.push(request.path);
      const issuer = this.issuer;
      if (request.path === '/.well-known/openid-configuration') {
        return answerJson(response, 200, {
          issuer,
          authorization_endpoint: `${issuer}/auth/authorize`,
          token_endpoint: `${issuer}/auth/token`,
          jwks_uri: `${issuer}/auth/keys`,
          response_types_supported: ['code'],
          response_modes_supported: ['query', 'fragment', 'form_post'],
          subject_types_supported: ['pairwise'],
          id_token_signing_alg_values_supported: ['RS256'],
          scopes_supported: ['openid', 'email', 'name'],
          token_endpoint_auth_methods_supported: ['client_secret_post'],
        });
      }
      if (request.path === '/auth/keys') return answerJson(response, 200, { keys: [jwk] });
      if (request.path === '/auth/authorize') {
        const { query } = request;
        const code = randomBytes(10).toString('hex');
        const redirectUri = query.get('redirect_uri')!;
        this.codes.set(code, {
          challenge: query.get('code_challenge') ?? '',
          nonce: query.get('nonce') ?? '',
          redirectUri,
        });
        const fields: Record<string, string> = { code, state: query.get('state') ?? '' };
        if (!this.signedIn.has(this.sub)) {
          fields.user = JSON.stringify({ name: { firstName: 'Ada', lastName: 'Lovelace' }, email: this.email });
        }
        this.signedIn.add(this.sub);
        const inputs = Object.entries(fields)
          .map(([name, value]) => `<input type="hidden" name="${name}" value="${encodeHtml(value)}" />`)
          .join('');
        response.writeHead(200, { 'content-type': 'text/html' });
        return response.end(
          `<html><body onload="document.forms[0].submit()"><form method="post" action="${encodeHtml(redirectUri)}">${inputs}</form></body></html>`,
        );
      }
      if (request.method === 'POST' && request.path === '/auth/token') {
        const { form } = request;
        const issued = this.codes.get(form.get('code') ?? '');
        this.codes.delete(form.get('code') ?? '');
        if (form.get('client_id') !== this.clientId || form.get('client_secret') !== this.clientSecret) {
          return answerJson(response, 400, { error: 'invalid_client' });
        }
        if (
          !issued ||
          issued.redirectUri !== form.get('redirect_uri') ||
          !pkceMatches(form.get('code_verifier'), issued.challenge)
        ) {
          return answerJson(response, 400, { error: 'invalid_grant' });
        }
        const idToken = await new SignJWT({
          email: this.email,
          email_verified: this.emailVerified,
          is_private_email: 'true',
          nonce: issued.nonce,
          nonce_supported: true,
        })
          .setProtectedHeader({ alg: 'RS256', kid: jwk.kid })
          .setIssuer(issuer)
          .setAudience(this.clientId)
          .setSubject(this.sub)
          .setIssuedAt()
          .setExpirationTime('10m')
          .sign(privateKey);
        return answerJson(response, 200, {
          access_token: randomBytes(16).toString('hex'),
          token_type: 'Bearer',
          expires_in: 3600,
          id_token: idToken,
        });
      }
      return answerJson(response, 404, { error: 'not_found' });
    });
    return this;
  }

  stop(): Promise<void> {
    return this.server?.stop() ?? Promise.resolve();
  }
}
