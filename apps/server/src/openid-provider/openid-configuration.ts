import { OPENID_SCOPES, type PrincipalSource } from '@uas/domain';
import type { AdapterFactory, Client, Configuration, JWK, KoaContextWithOIDC } from 'oidc-provider';
import { findAccount, SCOPE_CLAIMS, SIGN_IN_CLAIMS } from './openid-accounts';
import { engineErrorPage, signedOutPage, signOutPage } from './engine-pages';
import type { FirstPartyGrants } from './first-party-grants';

/** The engine's endpoints, under `/oidc/` of PUBLIC_URL; discovery stays at the well-known path. */
const ENGINE_ROUTES = {
  authorization: '/oidc/auth',
  token: '/oidc/token',
  userinfo: '/oidc/userinfo',
  jwks: '/oidc/jwks',
  revocation: '/oidc/revoke',
  introspection: '/oidc/introspect',
  end_session: '/oidc/logout',
} as const;

/**
 * The `acr` of a sign-in, as the engine states it in ID tokens: with a second factor (or a
 * passkey, which is one in itself) or without.
 */
export const ACR_VALUES = {
  multiFactor: 'urn:user-account-service:acr:mfa',
  singleFactor: 'urn:user-account-service:acr:single-factor',
} as const;

/** Codes are exchanged at once by the application's back end: one minute is plenty (and what OAuth 2.1 advises at most). */
const CODE_SECONDS = 60;
/** How long a sign-in and consent may take in the browser. */
const INTERACTION_SECONDS = 10 * 60;

export interface EngineSettings {
  /** JWT_ALGORITHM: what signs ID tokens unless a client's metadata asks for RS256. */
  idTokenAlgorithm: string;
  accessTokenSeconds: number;
  refreshTokenSeconds: number;
  /** The `/account/authorize/:uid` page that signs the user in and asks their consent. */
  interactionUrl(uid: string): string;
}

export interface EngineParts {
  adapter: AdapterFactory;
  users: PrincipalSource;
  firstParty: FirstPartyGrants;
  /** The private keys (the signing keys and their RS256 companions), the one signing now first of each algorithm. */
  jwks: { keys: JWK[] };
  /** Keys signing the engine's cookies, the current one first (from the key ring, shared by every instance). */
  cookieKeys: string[];
}

/**
 * oidc-provider's configuration, OAuth 2.1's posture: the authorization code flow only (no
 * implicit or hybrid response, no dynamic registration, no device or CIBA flow), PKCE with S256
 * required of public clients and checked whenever sent, refresh tokens rotated on every use,
 * introspection for confidential clients of their own tokens only, RP-initiated logout.
 */
export function engineConfiguration(settings: EngineSettings, parts: EngineParts): Configuration {
  const { accessTokenSeconds, refreshTokenSeconds } = settings;
  return {
    adapter: parts.adapter,
    findAccount: findAccount(parts.users),
    loadExistingGrant: (ctx) => parts.firstParty.load(ctx),
    jwks: parts.jwks,
    cookies: {
      keys: parts.cookieKeys,
      names: { session: 'uas_oidc_session', interaction: 'uas_oidc_interaction', resume: 'uas_oidc_resume' },
    },
    clientDefaults: {
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      id_token_signed_response_alg: settings.idTokenAlgorithm as 'ES256',
      token_endpoint_auth_method: 'client_secret_basic',
    },
    clientAuthMethods: ['client_secret_basic', 'client_secret_post', 'none'],
    responseTypes: ['code'],
    scopes: [...OPENID_SCOPES],
    claims: {
      ...Object.fromEntries(Object.entries(SCOPE_CLAIMS).map(([scope, claims]) => [scope, [...claims]])),
      openid: [...SCOPE_CLAIMS.openid, ...SIGN_IN_CLAIMS],
    },
    conformIdTokenClaims: true,
    acrValues: Object.values(ACR_VALUES),
    pkce: {
      required: (_ctx, client) => client.clientAuthMethod === 'none',
    },
    rotateRefreshToken: true,
    // A refresh token for `offline_access` only, as OpenID Connect has it.
    issueRefreshToken: (_ctx, client, code) =>
      client.grantTypeAllowed('refresh_token') && code.scopes.has('offline_access'),
    routes: ENGINE_ROUTES,
    interactions: { url: (_ctx, interaction) => settings.interactionUrl(interaction.uid) },
    features: {
      devInteractions: { enabled: false },
      userinfo: { enabled: true },
      // A client revokes only its own tokens; another's stay as they are (RFC 7009 answers 200 all the same).
      revocation: { enabled: true, allowedPolicy: (_ctx, client, token) => token.clientId === client.clientId },
      introspection: {
        enabled: true,
        // Confidential clients only (a public client cannot prove who asks), and of their own
        // tokens: clients here are relying parties of different owners, no resource server needs
        // to read another's token. Anything else introspects as `active: false`.
        allowedPolicy: (_ctx, client, token) =>
          client.clientAuthMethod !== 'none' && token.clientId === client.clientId,
      },
      rpInitiatedLogout: { enabled: true, logoutSource: signOutPage, postLogoutSuccessSource: signedOutPage },
      registration: { enabled: false },
      pushedAuthorizationRequests: { enabled: false },
      dPoP: { enabled: false },
      resourceIndicators: { enabled: false },
      clientCredentials: { enabled: false },
      deviceFlow: { enabled: false },
    },
    clientBasedCORS,
    renderError: engineErrorPage,
    ttl: {
      AccessToken: accessTokenSeconds,
      AuthorizationCode: CODE_SECONDS,
      IdToken: accessTokenSeconds,
      RefreshToken: refreshTokenSeconds,
      Grant: refreshTokenSeconds,
      Session: refreshTokenSeconds,
      Interaction: INTERACTION_SECONDS,
    },
  };
}

/**
 * A browser may call the engine cross-origin only for a public client (a single-page app) from
 * the origin of one of its redirect URIs; a confidential client calls from its server.
 */
function clientBasedCORS(_ctx: KoaContextWithOIDC, origin: string, client: Client) {
  if (client.clientAuthMethod !== 'none') return false;
  return (client.redirectUris ?? []).some((uri) => URL.parse(uri)?.origin === origin);
}
