import type { ValidationIssue } from '../shared/errors.ts';
import { isStorableText } from '../shared/json.ts';
import { UNSTORABLE_TEXT } from '../users/user.rules.ts';
import {
  IDENTITY_PROVIDER_KINDS,
  type IdentityProviderDraft,
  type IdentityProviderKind,
  type IdentityProviderPatch,
} from './identity-provider.ts';

/** Lower-case letters, digits and inner dashes, 1 to 40 characters: safe in a URL path as it is. */
export const IDENTITY_PROVIDER_SLUG = /^[a-z0-9](?:[a-z0-9-]{0,38}[a-z0-9])?$/;
export const ISSUER_MAX_LENGTH = 2048;
export const CLIENT_ID_MAX_LENGTH = 255;
/** Room for Apple's client secret, a signed JWT the admin generates. */
export const CLIENT_SECRET_MAX_LENGTH = 4096;
export const SCOPES_MAX_COUNT = 20;
export const SCOPE_MAX_LENGTH = 100;
/** A scope token of RFC 6749 (3.3): printable ASCII but space, `"` and `\`. */
const SCOPE_TOKEN = /^[\x21\x23-\x5B\x5D-\x7E]+$/;

/** What the operator allows of issuers: https only, unless IDENTITY_PROVIDER_ALLOW_HTTP. */
export interface IssuerPolicy {
  allowHttp: boolean;
}

export const isIdentityProviderKind = (value: string): value is IdentityProviderKind =>
  (IDENTITY_PROVIDER_KINDS as readonly string[]).includes(value);

/** Whether a provider of `kind` needs a client secret: every preset does; a generic OIDC one may be a public client. */
export const needsClientSecret = (kind: IdentityProviderKind): boolean => kind !== 'oidc';

/** Where a provider sends the browser back, to be registered at the provider: `PUBLIC_URL` + `v1/oauth/{slug}/callback`. */
export const identityProviderCallbackUrl = (publicUrl: string, slug: string): string =>
  `${publicUrl}v1/oauth/${slug}/callback`;

export function slugProblem(slug: string): string | null {
  return IDENTITY_PROVIDER_SLUG.test(slug)
    ? null
    : 'must be 1 to 40 lower-case letters, digits and dashes, starting and ending with a letter or digit';
}

function kindProblem(kind: string): string | null {
  return isIdentityProviderKind(kind) ? null : `must be one of ${IDENTITY_PROVIDER_KINDS.join(', ')}`;
}

/**
 * Why `issuer` cannot be a provider's, or null: an absolute https URL (http where the operator
 * allows it) without credentials, query or fragment (OpenID Connect Discovery 1.0, 2). It is kept
 * exactly as given: ID tokens' `iss` must equal it character for character.
 */
export function issuerProblem(issuer: string, { allowHttp }: IssuerPolicy): string | null {
  if (issuer.length > ISSUER_MAX_LENGTH) return `must be at most ${ISSUER_MAX_LENGTH} characters`;
  let parsed: URL;
  try {
    parsed = new URL(issuer);
  } catch {
    return 'must be an absolute URL';
  }
  if (parsed.protocol === 'http:' && !allowHttp) {
    return 'must be an https URL (http needs IDENTITY_PROVIDER_ALLOW_HTTP=true)';
  }
  if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') return 'must be an https URL';
  if (parsed.username !== '' || parsed.password !== '') return 'must not carry a user name or password';
  if (parsed.search !== '' || parsed.hash !== '' || /[?#]/.test(issuer)) return 'must have no query or fragment';
  return null;
}

/** A client id or secret: what the provider issued, printable, without surrounding spaces. */
function credentialProblem(value: string, maxLength: number): string | null {
  if (value.length === 0) return 'must not be empty';
  if (value.length > maxLength) return `must be at most ${maxLength} characters`;
  if (!isStorableText(value)) return UNSTORABLE_TEXT;
  // Named, never quoted: an error must not echo a secret.
  if (/^\s|\s$|\p{Cc}/u.test(value)) return 'must not have control characters or surrounding spaces';
  return null;
}

export function scopesProblem(scopes: readonly string[]): string | null {
  if (scopes.length > SCOPES_MAX_COUNT) return `must list at most ${SCOPES_MAX_COUNT} scopes`;
  const bad = scopes.findIndex((scope) => scope.length > SCOPE_MAX_LENGTH || !SCOPE_TOKEN.test(scope));
  if (bad >= 0) {
    return `must each be 1 to ${SCOPE_MAX_LENGTH} printable ASCII characters without spaces, quotes or backslashes (entry ${bad} is not)`;
  }
  return null;
}

/** Each scope once, in the order given. */
export const normalizeScopes = (scopes: readonly string[]): string[] => [...new Set(scopes)];

const pointer = (attribute: string) => ({ pointer: `/data/attributes/${attribute}` });
const required = (attribute: string): ValidationIssue => ({
  source: pointer(attribute),
  detail: `${attribute} is required`,
});

/**
 * Every problem with the present attributes of a create or an update of a provider of `kind`
 * (unknown on a create with a bad kind: then only what holds for any kind), one per attribute.
 */
function attributeIssues(
  attributes: IdentityProviderPatch,
  kind: IdentityProviderKind | null,
  policy: IssuerPolicy,
): ValidationIssue[] {
  const issues: ValidationIssue[] = [];
  const report = (attribute: string, problem: string | null) => {
    if (problem) issues.push({ source: pointer(attribute), detail: `${attribute} ${problem}` });
  };
  const { issuer, clientId, clientSecret, scopes } = attributes;
  if (issuer === null && kind === 'oidc') issues.push(required('issuer'));
  else if (issuer !== undefined && issuer !== null) report('issuer', issuerProblem(issuer, policy));
  if (clientId !== undefined) report('client_id', credentialProblem(clientId, CLIENT_ID_MAX_LENGTH));
  if (clientSecret === null && kind !== null && needsClientSecret(kind)) {
    report('client_secret', `is required for ${kind}`);
  } else if (clientSecret !== undefined && clientSecret !== null) {
    report('client_secret', credentialProblem(clientSecret, CLIENT_SECRET_MAX_LENGTH));
  }
  if (scopes !== undefined) report('scopes', scopesProblem(scopes));
  return issues;
}

/** Issues of a new provider: slug and kind, what its kind requires (issuer for oidc, the secret for presets), and the attribute rules. */
export function newIdentityProviderIssues(
  draft: Partial<IdentityProviderDraft>,
  policy: IssuerPolicy,
): ValidationIssue[] {
  const issues: ValidationIssue[] = [];
  const report = (attribute: string, problem: string | null) => {
    if (problem) issues.push({ source: pointer(attribute), detail: `${attribute} ${problem}` });
  };
  if (draft.slug === undefined) issues.push(required('slug'));
  else report('slug', slugProblem(draft.slug));
  if (draft.kind === undefined) issues.push(required('kind'));
  else report('kind', kindProblem(draft.kind));
  const kind = draft.kind !== undefined && isIdentityProviderKind(draft.kind) ? draft.kind : null;
  if (draft.clientId === undefined) issues.push(required('client_id'));
  // Absent and null alike: a new provider of these kinds needs both.
  const issuer = kind === 'oidc' ? (draft.issuer ?? null) : draft.issuer;
  const clientSecret = kind !== null && needsClientSecret(kind) ? (draft.clientSecret ?? null) : draft.clientSecret;
  return [...issues, ...attributeIssues({ ...draft, issuer, clientSecret }, kind, policy)];
}

/** Issues of a change to a provider of `kind` (which never changes): removing what the kind requires is one. */
export const identityProviderPatchIssues = (
  patch: IdentityProviderPatch,
  kind: IdentityProviderKind,
  policy: IssuerPolicy,
): ValidationIssue[] => attributeIssues(patch, kind, policy);
