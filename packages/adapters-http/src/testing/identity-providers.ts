import { auditRecord, pkceChallenge, SYSTEM, type IdentityProvider, type UpstreamAccount } from '@uas/domain';
import type { TestApp } from './test-app';

/** The app's PKCE verifier (RFC 7636: 43 unreserved characters) and its S256 challenge. */
export const APP_VERIFIER = 'app-verifier-0123456789-abcdefghijklmnopqrstuv';
export const APP_CHALLENGE = pkceChallenge(APP_VERIFIER);

/** Stores a provider as an admin would have made it, its client secret sealed. */
export async function addIdentityProvider(
  t: TestApp,
  overrides: Partial<Omit<IdentityProvider, 'clientSecret'>> = {},
): Promise<IdentityProvider> {
  const id = t.ids.next();
  const now = t.clock.now();
  const provider: IdentityProvider = {
    id,
    slug: 'acme',
    kind: 'oidc',
    issuer: 'https://acme.example',
    clientId: 'client-1',
    clientSecret: await t.box.seal('identity-provider-secret', 'client-secret-1', id),
    scopes: [],
    enabled: true,
    autoLink: false,
    created: now,
    updated: now,
    ...overrides,
  };
  const audit = auditRecord(t.ids.next(), now, SYSTEM, 'identity_provider.created', { type: 'identity_providers', id });
  return t.repositories.identityProviders.create(provider, audit);
}

export const upstreamAccount = (overrides: Partial<UpstreamAccount> = {}): UpstreamAccount => ({
  subject: 'subject-1',
  email: 'ann@example.com',
  emailVerified: true,
  name: 'Ann',
  ...overrides,
});

/** The `uas_oauth` cookie a response set, as a browser sends it back. */
export function oauthCookieHeader(response: Response): Record<string, string> {
  const set = response.headers.getSetCookie().find((cookie) => cookie.startsWith('uas_oauth='));
  return set ? { Cookie: set.split(';')[0] ?? '' } : {};
}

/**
 * A browser through `/authorize` (at `authorizePath`) and the provider, the user there consenting
 * as `who`, back at the callback: the callback's response.
 */
export async function throughProvider(t: TestApp, authorizePath: string, who: UpstreamAccount): Promise<Response> {
  const started = await t.app.request(authorizePath);
  if (started.status !== 302) throw new Error(`authorize answered ${started.status}`);
  const location = new URL(started.headers.get('location') ?? '');
  const slug = /^\/v1\/oauth\/([^/]+)\//.exec(new URL(authorizePath, 'https://x.invalid').pathname)?.[1] ?? '';
  const params = t.upstream.consent(location.searchParams.get('state') ?? '', who);
  return t.app.request(`/v1/oauth/${slug}/callback?${new URLSearchParams(params)}`, {
    headers: oauthCookieHeader(started),
  });
}

/** The `/authorize` path of a sign-in at `slug` ending at `redirectTo`. */
export const signInPath = (slug: string, redirectTo: string, challenge = APP_CHALLENGE) =>
  `/v1/oauth/${slug}/authorize?${new URLSearchParams({ redirect_to: redirectTo, code_challenge: challenge })}`;
