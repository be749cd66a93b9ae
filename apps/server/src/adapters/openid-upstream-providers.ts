import { IdentityProviderError, type UpstreamAccount, type UpstreamClient, type UpstreamProviders } from '@uas/domain';
import * as oidc from 'openid-client';
import { ForbiddenAddressError, forbiddenAddressKind } from './address-guard';
import { GuardedFetchError, guardedFetch } from './guarded-fetch';
import {
  appleAccount,
  type Claims,
  type GithubEmail,
  type GithubUser,
  githubAccount,
  microsoftAccount,
  oidcAccount,
  UPSTREAM_PRESETS,
} from './upstream-presets';

/** How long one request to a provider may take. */
const UPSTREAM_TIMEOUT_MS = 10_000;
/** Providers whose discovered configuration is kept; the least recently made goes first. */
const CACHED_PROVIDERS = 64;
/** How long a discovered configuration is kept: a provider's endpoints and keys may move. */
const DISCOVERY_TTL_MS = 60 * 60 * 1000;
/** The setting that lets providers be reached at private addresses, named in each refusal. */
const ALLOW_PRIVATE = 'IDENTITY_PROVIDER_ALLOW_PRIVATE_ADDRESSES';
/** The longest reason logged of a failure. */
const REASON_MAX_LENGTH = 300;

export interface OpenIdUpstreamProvidersOptions {
  /** IDENTITY_PROVIDER_ALLOW_HTTP: http issuers and endpoints beside https ones. */
  allowHttp: boolean;
  /** IDENTITY_PROVIDER_ALLOW_PRIVATE_ADDRESSES: loopback, private and link-local addresses may be reached. */
  allowPrivateAddresses: boolean;
  timeoutMs?: number;
}

/** An OAuth error code as the log may show it: the callback's comes from whoever calls it. */
const errorCode = (code: string) => code.replace(/[^\w.-]/g, '?').slice(0, 64);

/**
 * Why a call to the provider failed, fit for a log: openid-client's message and its code (which
 * name the check that failed, never a value), one level of cause, or the guarded fetch's generic
 * network reason; for an error answer, the OAuth error code only (its description may echo input).
 */
function reasonOf(stage: string, error: unknown): string {
  let cause: unknown = error;
  for (let depth = 0; cause instanceof Error && depth < 4; depth++, cause = cause.cause) {
    if (cause instanceof GuardedFetchError) return `${stage}: ${cause.message}`;
  }
  let reason: string;
  if (error instanceof IdentityProviderError) reason = error.reason;
  else if (error instanceof oidc.ResponseBodyError) reason = `error answer ${error.status} ${errorCode(error.error)}`;
  else if (error instanceof oidc.AuthorizationResponseError)
    reason = `authorization answered ${errorCode(error.error)}`;
  else if (error instanceof oidc.WWWAuthenticateChallengeError) reason = `challenge answer ${error.status}`;
  else if (error instanceof Error) {
    const { code } = error as { code?: unknown };
    const detail =
      error.cause instanceof Error && error.cause.message !== error.message ? ` (${error.cause.message})` : '';
    reason = `${error.message}${detail}${typeof code === 'string' ? ` [${code}]` : ''}`;
  } else reason = 'unknown failure';
  return `${stage}: ${reason}`.slice(0, REASON_MAX_LENGTH);
}

/** Runs `step`, turning any failure into IdentityProviderError with a log-safe reason. */
async function upstream<T>(stage: string, step: () => Promise<T>): Promise<T> {
  try {
    return await step();
  } catch (error) {
    throw new IdentityProviderError(reasonOf(stage, error));
  }
}

const scopesOf = (client: UpstreamClient) =>
  [...new Set([...UPSTREAM_PRESETS[client.provider.kind].scopes, ...client.provider.scopes])].join(' ');

/** The API beside a GitHub host: `api.github.com` for github.com, `/api/v3` on GitHub Enterprise Server. */
const githubApiOf = (issuer: URL) =>
  issuer.hostname === 'github.com'
    ? 'https://api.github.com'
    : new URL('api/v3', `${issuer.href.replace(/\/?$/, '/')}`).href;

/**
 * UpstreamProviders on openid-client 6 (oauth4webapi): OpenID Connect kinds by discovery and a
 * verified ID token (signature against its key set, issuer, audience, nonce, expiry), GitHub as plain OAuth 2 with
 * its endpoints built from its host. Every request goes through a guarded fetch: global unicast
 * addresses only unless allowed, https only unless allowed, no redirect followed, 10 s at most.
 */
export class OpenIdUpstreamProviders implements UpstreamProviders {
  private readonly fetch;
  private readonly configurations = new Map<string, { at: number; configuration: Promise<oidc.Configuration> }>();

  constructor(private readonly options: OpenIdUpstreamProvidersOptions) {
    this.fetch = guardedFetch({
      allowPrivateAddresses: options.allowPrivateAddresses,
      allowVariable: ALLOW_PRIVATE,
      timeoutMs: options.timeoutMs ?? UPSTREAM_TIMEOUT_MS,
    });
  }

  async authorizationUrl(
    client: UpstreamClient,
    { state, nonce, codeChallenge }: { state: string; nonce: string; codeChallenge: string },
  ): Promise<string> {
    const configuration = await this.configurationOf(client);
    const preset = UPSTREAM_PRESETS[client.provider.kind];
    return upstream('authorization URL', async () =>
      oidc
        .buildAuthorizationUrl(configuration, {
          response_type: 'code',
          redirect_uri: client.redirectUri,
          scope: scopesOf(client),
          state,
          ...(preset.openid ? { nonce } : {}),
          code_challenge: codeChallenge,
          code_challenge_method: 'S256',
          ...preset.authorizationParameters,
        })
        .toString(),
    );
  }

  async complete(
    client: UpstreamClient,
    callback: { params: Readonly<Record<string, string>>; state: string; nonce: string; codeVerifier: string },
  ): Promise<UpstreamAccount> {
    const configuration = await this.configurationOf(client);
    const { kind } = client.provider;
    const openid = UPSTREAM_PRESETS[kind].openid;
    const currentUrl = new URL(client.redirectUri);
    for (const [name, value] of Object.entries(callback.params)) currentUrl.searchParams.set(name, value);
    const tokens = await upstream('code exchange', () =>
      oidc.authorizationCodeGrant(configuration, currentUrl, {
        expectedState: callback.state,
        pkceCodeVerifier: callback.codeVerifier,
        ...(openid ? { expectedNonce: callback.nonce, idTokenExpected: true } : {}),
      }),
    );
    if (kind === 'github') return this.githubAccount(configuration, tokens.access_token);
    const claims = tokens.claims() as Claims;
    if (kind === 'microsoft') return microsoftAccount(claims);
    if (kind === 'apple') return appleAccount(claims, callback.params);
    if (claims.email !== undefined) return oidcAccount(claims);
    // A provider may keep the email for its userinfo endpoint; its `sub` must be the token's.
    if (configuration.serverMetadata().userinfo_endpoint === undefined) return oidcAccount(claims);
    const userinfo = await upstream('userinfo', () =>
      oidc.fetchUserInfo(configuration, tokens.access_token, String(claims.sub)),
    );
    return oidcAccount({ ...userinfo, sub: claims.sub });
  }

  async check(client: UpstreamClient): Promise<void> {
    await this.configurationOf(client);
  }

  close(): void {
    this.fetch.close();
  }

  /** GitHub's account: `/user` for the id and name, `/user/emails` for the primary address and whether it is verified. */
  private async githubAccount(configuration: oidc.Configuration, accessToken: string): Promise<UpstreamAccount> {
    const api = githubApiOf(new URL(configuration.serverMetadata().issuer));
    const read = (path: string) =>
      upstream(`GitHub ${path}`, async () => {
        const headers = new Headers({ accept: 'application/vnd.github+json', 'user-agent': 'user-account-service' });
        const answer = await oidc.fetchProtectedResource(
          configuration,
          accessToken,
          new URL(`${api}${path}`),
          'GET',
          undefined,
          headers,
        );
        if (answer.status !== 200) throw new IdentityProviderError(`answered ${answer.status}`);
        return answer.json() as Promise<unknown>;
      });
    const user = (await read('/user')) as GithubUser;
    const emails = await read('/user/emails');
    const account = githubAccount(user, Array.isArray(emails) ? (emails as GithubEmail[]) : []);
    if (!account) throw new IdentityProviderError('GitHub /user: no numeric id');
    return account;
  }

  /**
   * The provider's client configuration, discovered once per version of its record (id and
   * `updated`) and kept a while; a failed discovery is not kept.
   */
  private configurationOf(client: UpstreamClient): Promise<oidc.Configuration> {
    const { provider } = client;
    const key = `${provider.id}@${provider.updated.getTime()}`;
    const cached = this.configurations.get(key);
    if (cached && Date.now() - cached.at < DISCOVERY_TTL_MS) return cached.configuration;
    const configuration = upstream('discovery', () => this.configure(client));
    configuration.catch(() => this.configurations.delete(key));
    this.configurations.delete(key);
    this.configurations.set(key, { at: Date.now(), configuration });
    for (const old of this.configurations.keys()) {
      if (this.configurations.size <= CACHED_PROVIDERS) break;
      this.configurations.delete(old);
    }
    return configuration;
  }

  private async configure({ provider, clientSecret }: UpstreamClient): Promise<oidc.Configuration> {
    const preset = UPSTREAM_PRESETS[provider.kind];
    const issuerText = provider.issuer ?? preset.issuer;
    if (issuerText === null || !URL.canParse(issuerText)) throw new IdentityProviderError('no valid issuer');
    const issuer = new URL(issuerText);
    if (issuer.protocol !== 'https:' && !(issuer.protocol === 'http:' && this.options.allowHttp)) {
      throw new IdentityProviderError('the issuer must be https (http needs IDENTITY_PROVIDER_ALLOW_HTTP=true)');
    }
    // Checked here too (the guarded fetch does on each request) so that `check` refuses such a
    // GitHub host, which is not contacted before a sign-in.
    if (!this.options.allowPrivateAddresses && forbiddenAddressKind(issuer.hostname) !== null) {
      throw new IdentityProviderError(new ForbiddenAddressError(ALLOW_PRIVATE).message);
    }
    const authentication = clientSecret ? oidc.ClientSecretPost(clientSecret) : oidc.None();
    const timeout = Math.ceil((this.options.timeoutMs ?? UPSTREAM_TIMEOUT_MS) / 1000);
    const execute = this.options.allowHttp ? [oidc.allowInsecureRequests] : [];
    if (preset.openid) {
      return oidc.discovery(issuer, provider.clientId, undefined, authentication, {
        [oidc.customFetch]: this.fetch,
        timeout,
        // The ID token's signature is checked against the provider's keys too: TLS alone would
        // vouch for it only over https, and a provider allowed on http has none.
        execute: [...execute, oidc.enableNonRepudiationChecks],
      });
    }
    const base = issuer.href.replace(/\/?$/, '/');
    const configuration = new oidc.Configuration(
      {
        issuer: issuer.href,
        authorization_endpoint: new URL('login/oauth/authorize', base).href,
        token_endpoint: new URL('login/oauth/access_token', base).href,
      },
      provider.clientId,
      undefined,
      authentication,
    );
    configuration[oidc.customFetch] = this.fetch;
    configuration.timeout = timeout;
    for (const extension of execute) extension(configuration);
    return configuration;
  }
}
