import type { IdentityProviderKind, UpstreamAccount } from '@uas/domain';

/** What the ID token (and userinfo, where merged) says, as openid-client verified it. */
export type Claims = Readonly<Record<string, unknown>>;

/** How the adapter talks to one kind of provider. */
export interface UpstreamPreset {
  /** The issuer when the provider's record names none (null: the record must, as for `oidc`). */
  readonly issuer: string | null;
  /** OpenID Connect (discovery, an ID token with a nonce) or plain OAuth 2 (GitHub). */
  readonly openid: boolean;
  /** The scopes always asked, before the provider's own. */
  readonly scopes: readonly string[];
  /** Further authorization request parameters. */
  readonly authorizationParameters: Readonly<Record<string, string>>;
}

const OIDC_SCOPES = ['openid', 'email', 'profile'];

export const UPSTREAM_PRESETS: Readonly<Record<IdentityProviderKind, UpstreamPreset>> = {
  oidc: { issuer: null, openid: true, scopes: OIDC_SCOPES, authorizationParameters: {} },
  google: { issuer: 'https://accounts.google.com', openid: true, scopes: OIDC_SCOPES, authorizationParameters: {} },
  // The multi-tenant issuer: its discovery names `{tenantid}`, which openid-client replaces with
  // each ID token's `tid` before comparing `iss`. A tenant's own issuer may replace it.
  microsoft: {
    issuer: 'https://login.microsoftonline.com/common/v2.0',
    openid: true,
    scopes: OIDC_SCOPES,
    authorizationParameters: {},
  },
  // Apple answers by a form POST whenever `name` or `email` is asked.
  apple: {
    issuer: 'https://appleid.apple.com',
    openid: true,
    scopes: ['openid', 'name', 'email'],
    authorizationParameters: { response_mode: 'form_post' },
  },
  github: {
    issuer: 'https://github.com',
    openid: false,
    scopes: ['read:user', 'user:email'],
    authorizationParameters: {},
  },
};

const text = (value: unknown): string | null => (typeof value === 'string' && value !== '' ? value : null);

/** The claims as they come: the domain checks subject, email and name (`acceptedAccount`). */
function accountOf(subject: string, email: unknown, vouched: boolean, name: unknown): UpstreamAccount {
  return { subject, email: text(email), emailVerified: vouched, name: text(name) };
}

/** OpenID Connect's own rule (`oidc`, `google`): the email is verified only when `email_verified` is the boolean true. */
export const oidcAccount = (claims: Claims): UpstreamAccount =>
  accountOf(String(claims.sub), claims.email, claims.email_verified === true, claims.name);

/**
 * Microsoft: `email` is whatever the tenant's admin typed and is never proof (nOAuth); it is
 * vouched for only by the optional claim `xms_edov` (email domain owner verified) being true. The
 * subject is `tid:oid`: the account's object id in its tenant, the same for every app
 * registration of the organisation, where `sub` is pairwise per client id and would change with
 * it; `sub` only when a token lacks them.
 */
export function microsoftAccount(claims: Claims): UpstreamAccount {
  const tid = text(claims.tid);
  const oid = text(claims.oid);
  const subject = tid && oid ? `${tid}:${oid}` : String(claims.sub);
  return accountOf(subject, claims.email, claims.xms_edov === true, claims.name);
}

/** Apple's name, sent only on an account's first sign-in, in the form's `user` JSON. */
function appleName(user: string | undefined): string | null {
  if (user === undefined) return null;
  try {
    const { name } = JSON.parse(user) as { name?: { firstName?: unknown; lastName?: unknown } };
    return [text(name?.firstName), text(name?.lastName)].filter(Boolean).join(' ') || null;
  } catch {
    return null;
  }
}

/** Apple: `email_verified` is the boolean true or the string "true" (Apple sends either). */
export const appleAccount = (claims: Claims, params: Readonly<Record<string, string>>): UpstreamAccount =>
  accountOf(
    String(claims.sub),
    claims.email,
    claims.email_verified === true || claims.email_verified === 'true',
    appleName(params.user),
  );

/** GitHub's `/user` and `/user/emails` answers, as far as they are read. */
export interface GithubUser {
  readonly id: unknown;
  readonly login?: unknown;
  readonly name?: unknown;
}
export interface GithubEmail {
  readonly email?: unknown;
  readonly primary?: unknown;
  readonly verified?: unknown;
}

/**
 * GitHub: the subject is the numeric user id (a login can be renamed and taken by another), the
 * email the primary one of `/user/emails`, vouched for only when GitHub marks it `verified`.
 */
export function githubAccount(user: GithubUser, emails: readonly GithubEmail[]): UpstreamAccount | null {
  if (typeof user.id !== 'number' || !Number.isSafeInteger(user.id)) return null;
  const primary = emails.find((entry) => entry.primary === true);
  return accountOf(String(user.id), primary?.email, primary?.verified === true, text(user.name) ?? user.login);
}
