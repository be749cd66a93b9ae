import { randomBytes } from 'node:crypto';
import { answerJson, pkceMatches, startLoopbackServer } from './fake-provider-server';

export interface GithubFakeEmail {
  email: string;
  primary: boolean;
  verified: boolean;
}

/**
 * A GitHub-shaped OAuth 2 server on 127.0.0.1 (GitHub Enterprise's layout, which the adapter uses
 * for any host but github.com): `/login/oauth/authorize` redirects back with a code,
 * `/login/oauth/access_token` exchanges it (client secret and PKCE checked; errors answered 200
 * with an `error` field, as GitHub does), `/api/v3/user` and `/api/v3/user/emails` read the account.
 */
export class GithubFake {
  user: Record<string, unknown> = { id: 4242, login: 'octocat', name: 'Mona Lisa Octocat' };
  emails: GithubFakeEmail[] = [{ email: 'Octocat@Example.com', primary: true, verified: true }];
  private readonly codes = new Map<string, { challenge: string; redirectUri: string }>();
  private readonly tokens = new Set<string>();
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
    this.server = await startLoopbackServer((request, response) => {
      this.requests.push(request.path);
      if (request.method === 'GET' && request.path === '/login/oauth/authorize') {
        const redirect = new URL(request.query.get('redirect_uri')!);
        const code = randomBytes(10).toString('hex');
        this.codes.set(code, { challenge: request.query.get('code_challenge') ?? '', redirectUri: redirect.href });
        redirect.searchParams.set('code', code);
        redirect.searchParams.set('state', request.query.get('state') ?? '');
        response.writeHead(302, { location: redirect.href });
        return response.end();
      }
      if (request.method === 'POST' && request.path === '/login/oauth/access_token') {
        const { form } = request;
        const issued = this.codes.get(form.get('code') ?? '');
        this.codes.delete(form.get('code') ?? '');
        if (form.get('client_id') !== this.clientId || form.get('client_secret') !== this.clientSecret) {
          return answerJson(response, 200, { error: 'incorrect_client_credentials' });
        }
        if (
          !issued ||
          issued.redirectUri !== form.get('redirect_uri') ||
          !pkceMatches(form.get('code_verifier'), issued.challenge)
        ) {
          return answerJson(response, 200, { error: 'bad_verification_code' });
        }
        const token = `gho_${randomBytes(16).toString('hex')}`;
        this.tokens.add(token);
        return answerJson(response, 200, { access_token: token, token_type: 'bearer', scope: 'read:user,user:email' });
      }
      if (!this.tokens.has(request.authorization?.replace(/^Bearer /i, '') ?? '')) {
        return answerJson(response, 401, { message: 'Bad credentials' });
      }
      if (request.path === '/api/v3/user') return answerJson(response, 200, this.user);
      if (request.path === '/api/v3/user/emails') return answerJson(response, 200, this.emails);
      return answerJson(response, 404, { message: 'Not Found' });
    });
    return this;
  }

  stop(): Promise<void> {
    return this.server?.stop() ?? Promise.resolve();
  }
}
