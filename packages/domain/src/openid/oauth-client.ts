import type { SealedText } from '../secrets/secret.ts';

/** The key ring's purpose client secrets are sealed under, each with its client's id as context. */
export const OAUTH_CLIENT_SECRET_PURPOSE = 'oauth-client-secret';

/** A confidential client holds a secret (a server); a public one cannot keep one (a SPA, a native app) and must use PKCE. */
export const OAUTH_CLIENT_TYPES = ['public', 'confidential'] as const;
export type OAuthClientType = (typeof OAUTH_CLIENT_TYPES)[number];

/** RFC 8252: only a `native` client may register loopback redirect URIs, matched on any port. */
export const OAUTH_APPLICATION_TYPES = ['web', 'native'] as const;
export type OAuthApplicationType = (typeof OAUTH_APPLICATION_TYPES)[number];

/**
 * The scopes a client may be allowed, each with the claims it releases: `email` (`email`,
 * `email_verified`), `profile` (`name`), `metadata` and `app` (the user's claims of the same
 * names, as the service's own tokens carry them), `offline_access` (a refresh token).
 */
export const OPENID_SCOPES = ['openid', 'email', 'profile', 'metadata', 'app', 'offline_access'] as const;
export type OpenIdScope = (typeof OPENID_SCOPES)[number];

/**
 * How a client's ID tokens may be signed (`id_token_signed_response_alg`): the service's own
 * algorithms, and RS256 for relying parties that know no other (OpenID Connect's default).
 */
export const ID_TOKEN_SIGNING_ALGORITHMS = ['ES256', 'EdDSA', 'RS256'] as const;
export type IdTokenSigningAlgorithm = (typeof ID_TOKEN_SIGNING_ALGORITHMS)[number];

/**
 * An application that signs its users in through this service (an OpenID Connect relying party),
 * managed by admins. Its id is its `client_id`. A confidential client's secret is stored only
 * sealed under the key ring's `oauth-client-secret` purpose, with the client's id as context; it
 * is answered once, when made or rotated.
 */
export interface OAuthClient {
  readonly id: string;
  readonly name: string;
  readonly type: OAuthClientType;
  readonly applicationType: OAuthApplicationType;
  /** Matched exactly (a native client's loopback URIs on any port). */
  readonly redirectUris: readonly string[];
  readonly postLogoutRedirectUris: readonly string[];
  /** What it may ask for; `openid` always among them. */
  readonly scopes: readonly OpenIdScope[];
  /** Trusted by the operator: its users are not asked to consent. */
  readonly firstParty: boolean;
  /** How its ID tokens are signed; null: as the service signs its own tokens (JWT_ALGORITHM). */
  readonly idTokenSigningAlgorithm: IdTokenSigningAlgorithm | null;
  /** Null for a public client. */
  readonly secret: SealedText | null;
  readonly created: Date;
  readonly updated: Date;
}

/** What an admin supplies to register a client. */
export interface OAuthClientDraft {
  name: string;
  type: string;
  applicationType?: string;
  redirectUris: readonly string[];
  postLogoutRedirectUris?: readonly string[];
  scopes?: readonly string[];
  firstParty?: boolean;
  idTokenSigningAlgorithm?: string | null;
}

/** What an admin may change of a client; an absent key is left as it is. Its type stays. */
export interface OAuthClientPatch {
  name?: string;
  redirectUris?: readonly string[];
  postLogoutRedirectUris?: readonly string[];
  scopes?: readonly string[];
  firstParty?: boolean;
  idTokenSigningAlgorithm?: string | null;
}
