import type { ValidationIssue } from '../shared/errors.ts';
import { isStorableText } from '../shared/json.ts';
import { UNSTORABLE_TEXT } from '../users/user.rules.ts';
import {
  ID_TOKEN_SIGNING_ALGORITHMS,
  OAUTH_APPLICATION_TYPES,
  OAUTH_CLIENT_TYPES,
  OPENID_SCOPES,
  type OAuthApplicationType,
  type OAuthClientDraft,
  type OAuthClientPatch,
  type IdTokenSigningAlgorithm,
  type OAuthClientType,
  type OpenIdScope,
} from './oauth-client.ts';

/** Shown to users on the consent page and in their list of applications. */
export const OAUTH_CLIENT_NAME_MAX_LENGTH = 100;
export const REDIRECT_URIS_MAX_COUNT = 20;
export const REDIRECT_URI_MAX_LENGTH = 2000;
/** What a client may ask for unless the admin says otherwise. */
export const DEFAULT_OAUTH_CLIENT_SCOPES: readonly OpenIdScope[] = ['openid', 'email', 'profile'];

/** RFC 3986 URIs are printable ASCII: no space, control character or anything a browser would rewrite. */
const PRINTABLE_ASCII = /^[\x21-\x7E]+$/;
/** Schemes that run or embed content instead of reaching an application. */
const REFUSED_SCHEMES = new Set(['javascript:', 'data:', 'vbscript:', 'file:']);
/** The loopback hosts of RFC 8252 §7.3, as the URL parser writes them (the engine's list too). */
const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);

/** The eight 16-bit groups of an IPv6 literal as the URL parser writes it (`[…]`, `::` once at most, hex only). */
function ipv6Groups(host: string): number[] | null {
  if (!host.startsWith('[') || !host.endsWith(']')) return null;
  const [head = '', tail] = host.slice(1, -1).split('::');
  const parse = (part: string) => (part === '' ? [] : part.split(':').map((group) => parseInt(group, 16)));
  const [before, after] = [parse(head), parse(tail ?? '')];
  return tail === undefined
    ? before
    : [...before, ...Array<number>(8 - before.length - after.length).fill(0), ...after];
}

/**
 * Whether a parsed host reaches this machine, however written: `localhost` and its subdomains
 * (RFC 6761), 127.0.0.0/8 (the parser already reads `127.1` or `0x7f.1` as `127.0.0.1`), `[::1]`,
 * and 127.0.0.0/8 embedded in IPv6 (IPv4-mapped `::ffff:127.0.0.1`, -compatible, -translated).
 */
function isLoopbackHost(hostname: string): boolean {
  const host = hostname.replace(/\.$/, '');
  if (host === 'localhost' || host.endsWith('.localhost') || /^127\.\d+\.\d+\.\d+$/.test(host)) return true;
  const groups = ipv6Groups(host);
  if (!groups) return false;
  const zeros = (from: number, to: number) => groups.slice(from, to).every((group) => group === 0);
  if (zeros(0, 7) && groups[7] === 1) return true;
  const embedsLoopback = groups[6]! >> 8 === 0x7f;
  const mappedOrCompatible = zeros(0, 5) && (groups[5] === 0 || groups[5] === 0xffff);
  const translated = zeros(0, 4) && groups[4] === 0xffff && groups[5] === 0;
  return embedsLoopback && (mappedOrCompatible || translated);
}

export const isOAuthClientType = (value: string): value is OAuthClientType =>
  (OAUTH_CLIENT_TYPES as readonly string[]).includes(value);
export const isOAuthApplicationType = (value: string): value is OAuthApplicationType =>
  (OAUTH_APPLICATION_TYPES as readonly string[]).includes(value);
const isIdTokenSigningAlgorithm = (value: string): value is IdTokenSigningAlgorithm =>
  (ID_TOKEN_SIGNING_ALGORITHMS as readonly string[]).includes(value);
const isOpenIdScope = (value: string): value is OpenIdScope => (OPENID_SCOPES as readonly string[]).includes(value);

export function clientNameProblem(name: string): string | null {
  if (name.length === 0) return 'must not be empty';
  if (name.length > OAUTH_CLIENT_NAME_MAX_LENGTH) return `must be at most ${OAUTH_CLIENT_NAME_MAX_LENGTH} characters`;
  if (!isStorableText(name)) return UNSTORABLE_TEXT;
  // Format characters (bidi overrides and isolates, zero-width ones) would let a name read otherwise than it is.
  if (/^\s|\s$|[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]/u.test(name)) {
    return 'must not have control or invisible formatting characters, or surrounding spaces';
  }
  return null;
}

/**
 * Why `uri` cannot be a redirect URI of an `applicationType` client, or null. It is matched byte
 * for byte, so it is judged as written: absolute, printable ASCII (no space to trim, no backslash a
 * browser reads as a slash), no fragment, no `*`, no user name or password, never a scheme that
 * runs content. A web client answers on an https address of its own; a native one on a claimed
 * https address, a loopback http one (any port, RFC 8252 §7.3), or a private-use scheme named
 * after a domain it owns (`com.example.app:/cb`, §7.1).
 */
export function redirectUriProblem(uri: string, applicationType: OAuthApplicationType): string | null {
  if (uri.length > REDIRECT_URI_MAX_LENGTH) return `must be at most ${REDIRECT_URI_MAX_LENGTH} characters`;
  if (!PRINTABLE_ASCII.test(uri) || uri.includes('\\')) {
    return 'must be printable ASCII without spaces or backslashes';
  }
  if (uri.includes('#')) return 'must have no fragment';
  if (uri.includes('*')) return 'must have no wildcard';
  let parsed: URL;
  try {
    parsed = new URL(uri);
  } catch {
    return 'must be an absolute URI';
  }
  const scheme = parsed.protocol;
  if (REFUSED_SCHEMES.has(scheme)) return `must not use the ${scheme} scheme`;
  if (parsed.username !== '' || parsed.password !== '') return 'must not carry a user name or password';
  const loopback = LOOPBACK_HOSTS.has(parsed.hostname);
  if (applicationType === 'web') {
    if (scheme !== 'https:') return 'must be an https URL (loopback http only for native clients)';
    if (isLoopbackHost(parsed.hostname)) return 'must not be a loopback address (only native clients may register one)';
    return null;
  }
  if (scheme === 'http:') return loopback ? null : 'must use https (http only on localhost, 127.0.0.1 or [::1])';
  if (scheme === 'https:') return loopback ? 'must use http on a loopback address' : null;
  return scheme.includes('.')
    ? null
    : 'must use https, loopback http, or a private-use scheme of a reverse domain name';
}

/** A list of redirect URIs (each once): at most 20, each by redirectUriProblem, naming the first bad entry. */
function redirectUrisProblem(uris: readonly string[], applicationType: OAuthApplicationType): string | null {
  if (uris.length > REDIRECT_URIS_MAX_COUNT) return `must list at most ${REDIRECT_URIS_MAX_COUNT} URIs`;
  for (const [index, uri] of uris.entries()) {
    const problem = redirectUriProblem(uri, applicationType);
    // Named by position, not quoted: a refused URI may be long or hostile, and errors are shown as they are.
    if (problem) return `entry ${index} ${problem}`;
  }
  return null;
}

export function clientScopesProblem(scopes: readonly string[]): string | null {
  const bad = scopes.findIndex((scope) => !isOpenIdScope(scope));
  return bad < 0 ? null : `must each be one of ${OPENID_SCOPES.join(', ')} (entry ${bad} is not)`;
}

/** Each scope once, `openid` first (an OpenID client always has it), the others in the catalogue's order. */
export const normalizeClientScopes = (scopes: readonly string[]): OpenIdScope[] =>
  OPENID_SCOPES.filter((scope) => scope === 'openid' || scopes.includes(scope));

/** Each URI once, in the order given. */
export const normalizeUris = (uris: readonly string[]): string[] => [...new Set(uris)];

const pointer = (attribute: string) => ({ pointer: `/data/attributes/${attribute}` });

/**
 * Every problem with the present attributes of a new or changed client of `applicationType`, one
 * per attribute. `algorithms`: the ID token algorithms the service holds keys for (a client
 * asking for another could never be given an ID token).
 */
function attributeIssues(
  attributes: OAuthClientPatch,
  applicationType: OAuthApplicationType | null,
  algorithms: readonly IdTokenSigningAlgorithm[],
): ValidationIssue[] {
  const issues: ValidationIssue[] = [];
  const report = (attribute: string, problem: string | null) => {
    if (problem) issues.push({ source: pointer(attribute), detail: `${attribute} ${problem}` });
  };
  const { name, redirectUris, postLogoutRedirectUris, scopes } = attributes;
  if (name !== undefined) report('name', clientNameProblem(name));
  // An unknown application type (already reported) leaves the URIs unjudged: their rules depend on it.
  if (applicationType !== null) {
    if (redirectUris !== undefined) {
      report(
        'redirect_uris',
        redirectUris.length === 0 ? 'must list at least one URI' : redirectUrisProblem(redirectUris, applicationType),
      );
    }
    if (postLogoutRedirectUris !== undefined) {
      report('post_logout_redirect_uris', redirectUrisProblem(postLogoutRedirectUris, applicationType));
    }
  }
  if (scopes !== undefined) report('scopes', clientScopesProblem(scopes));
  const algorithm = attributes.idTokenSigningAlgorithm;
  if (algorithm !== undefined && algorithm !== null && !isIdTokenSigningAlgorithm(algorithm)) {
    report('id_token_signed_response_alg', `must be one of ${ID_TOKEN_SIGNING_ALGORITHMS.join(', ')}, or null`);
  } else if (algorithm && !algorithms.includes(algorithm)) {
    report(
      'id_token_signed_response_alg',
      `must be one this service signs with (${algorithms.join(', ')}: JWT_ALGORITHM and RS256), or null`,
    );
  }
  return issues;
}

/** Issues of a new client: its name, type and redirect URIs are required; its application type is `web` unless told. */
export function newOAuthClientIssues(
  draft: Partial<OAuthClientDraft>,
  algorithms: readonly IdTokenSigningAlgorithm[] = ID_TOKEN_SIGNING_ALGORITHMS,
): ValidationIssue[] {
  const issues: ValidationIssue[] = [];
  const required = (attribute: string) =>
    issues.push({ source: pointer(attribute), detail: `${attribute} is required` });
  if (draft.name === undefined) required('name');
  if (draft.type === undefined) required('type');
  else if (!isOAuthClientType(draft.type)) {
    issues.push({ source: pointer('type'), detail: `type must be one of ${OAUTH_CLIENT_TYPES.join(', ')}` });
  }
  const applicationType = draft.applicationType ?? 'web';
  if (!isOAuthApplicationType(applicationType)) {
    issues.push({
      source: pointer('application_type'),
      detail: `application_type must be one of ${OAUTH_APPLICATION_TYPES.join(', ')}`,
    });
  }
  if (draft.redirectUris === undefined) required('redirect_uris');
  return [
    ...issues,
    ...attributeIssues(draft, isOAuthApplicationType(applicationType) ? applicationType : null, algorithms),
  ];
}

/** Issues of a change to a client of `applicationType` (which never changes). */
export const oauthClientPatchIssues = (
  patch: OAuthClientPatch,
  applicationType: OAuthApplicationType,
  algorithms: readonly IdTokenSigningAlgorithm[] = ID_TOKEN_SIGNING_ALGORITHMS,
): ValidationIssue[] => attributeIssues(patch, applicationType, algorithms);
