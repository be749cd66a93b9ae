import type { SealedText } from '../secrets/secret.ts';

/**
 * What an identity provider is: any OpenID Connect provider found by its issuer (`oidc`), or a
 * preset that knows one provider's quirks (GitHub speaks OAuth 2 without ID tokens, Apple answers
 * with a form POST, Microsoft's multi-tenant issuer names the tenant in each token).
 */
export const IDENTITY_PROVIDER_KINDS = ['oidc', 'github', 'google', 'microsoft', 'apple'] as const;
export type IdentityProviderKind = (typeof IDENTITY_PROVIDER_KINDS)[number];

/**
 * An external identity provider users may sign in with, managed by admins. Its client secret is
 * stored only sealed under the key ring's `identity-provider-secret` purpose, with the provider's
 * id as context, and never leaves the service.
 */
export interface IdentityProvider {
  readonly id: string;
  /** What the flow's URLs name it by (`/v1/oauth/{slug}/…`): lower-case letters, digits and dashes. */
  readonly slug: string;
  readonly kind: IdentityProviderKind;
  /** The issuer discovery starts from: required for `oidc`, the preset's own (or null) otherwise. */
  readonly issuer: string | null;
  readonly clientId: string;
  /** Null for a public client (no secret; PKCE alone). */
  readonly clientSecret: SealedText | null;
  /** The scopes asked for, beyond what the kind always asks (`openid email profile` for OIDC kinds). */
  readonly scopes: readonly string[];
  readonly enabled: boolean;
  /**
   * Whether a first sign-in may link to an existing user with the same email: only when the
   * provider vouches the email verified and the local address is verified too.
   */
  readonly autoLink: boolean;
  readonly created: Date;
  readonly updated: Date;
}

/** What an admin supplies to create a provider (`client_secret` in plain text: it is sealed before it is stored). */
export interface IdentityProviderDraft {
  slug: string;
  kind: string;
  issuer?: string | null;
  clientId: string;
  clientSecret?: string | null;
  scopes?: readonly string[];
  enabled?: boolean;
  autoLink?: boolean;
}

/** What an admin may change of a provider; an absent key is left as it is. Its slug and kind stay. */
export interface IdentityProviderPatch {
  issuer?: string | null;
  clientId?: string;
  clientSecret?: string | null;
  scopes?: readonly string[];
  enabled?: boolean;
  autoLink?: boolean;
}
