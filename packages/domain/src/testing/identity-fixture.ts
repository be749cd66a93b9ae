import { SYSTEM } from '../audit/audit-event.ts';
import { auditRecord } from '../audit/audit-records.ts';
import type { Domain } from './domain-fixture.ts';
import { ADDRESS } from './domain-fixture.ts';
import type { CallbackOutcome } from '../identities/external-sign-in.ts';
import type { IdentityProvider } from '../identities/identity-provider.ts';
import type { UpstreamAccount } from '../identities/oauth-attempt.ts';
import { pkceChallenge } from '../identities/pkce.ts';

/** Helpers of the identity flow's unit tests, over a domain built on the fakes. */

export const REQUEST = { requestId: null, clientAddress: ADDRESS, userAgent: 'test' };
/** The app's PKCE verifier (RFC 7636: 43 unreserved characters) and its S256 challenge. */
export const VERIFIER = 'app-verifier-0123456789-abcdefghijklmnopqrstuv';
export const CHALLENGE = pkceChallenge(VERIFIER);

export const account = (overrides: Partial<UpstreamAccount> = {}): UpstreamAccount => ({
  subject: 'subject-1',
  email: 'ann@example.com',
  emailVerified: true,
  name: 'Ann',
  ...overrides,
});

/** Stores a provider as an admin would have made it, its client secret sealed. */
export async function addProvider(
  domain: Domain,
  overrides: Partial<Omit<IdentityProvider, 'clientSecret'>> = {},
): Promise<IdentityProvider> {
  const id = domain.ids.next();
  const now = domain.clock.now();
  const provider: IdentityProvider = {
    id,
    slug: 'acme',
    kind: 'oidc',
    issuer: 'https://acme.example',
    clientId: 'client-1',
    clientSecret: await domain.box.seal('identity-provider-secret', 'client-secret-1', id),
    scopes: [],
    enabled: true,
    autoLink: false,
    created: now,
    updated: now,
    ...overrides,
  };
  const audit = auditRecord(domain.ids.next(), now, SYSTEM, 'identity_provider.created', {
    type: 'identity_providers',
    id,
  });
  return domain.repositories.identityProviders.create(provider, audit);
}

/** The state the provider was sent to in `location`. */
export const stateIn = (location: string): string => new URL(location).searchParams.get('state') ?? '';

/** A sign-in from start to callback, the user at the provider consenting as `who`. */
export async function signInThrough(
  domain: Domain,
  slug: string,
  who: UpstreamAccount,
  redirectTo = '/signed-in',
): Promise<CallbackOutcome> {
  const { location, browser } = await domain.externalSignIn.authorize(slug, { redirectTo, codeChallenge: CHALLENGE });
  const params = domain.upstream.consent(stateIn(location), who);
  return domain.externalSignIn.callback(slug, params, browser, REQUEST);
}

/** The code of an outcome that must have one. */
export function codeOf(outcome: CallbackOutcome): string {
  if (outcome.code === undefined) throw new Error(`the callback ended with ${outcome.error.code}`);
  return outcome.code;
}
