import type { ExternalIdentity } from '../identities/external-identity.ts';
import type { IdentityProvider } from '../identities/identity-provider.ts';
import type { OAuthAttempt } from '../identities/oauth-attempt.ts';

/** When the identity samples are made: attempts' states expire 10 minutes later. */
export const IDENTITY_T0 = new Date('2027-03-01T09:00:00.000Z');
export const identityAt = (seconds: number) => new Date(IDENTITY_T0.getTime() + seconds * 1000);

let made = 0;
const nextId = (prefix: string) => {
  made += 1;
  return `${prefix}-0000-4000-8000-${made.toString(16).padStart(12, '0')}`;
};

/** An enabled generic OIDC provider with a sealed client secret, its slug unique. */
export function sampleIdentityProvider(overrides: Partial<IdentityProvider> = {}): IdentityProvider {
  const id = nextId('27000000');
  return {
    id,
    slug: `provider-${made}`,
    kind: 'oidc',
    issuer: `https://idp${made}.example.com`,
    clientId: `client-${made}`,
    clientSecret: { keyId: 'key-1', ciphertext: `sealed-${made}` },
    scopes: ['offline_access', 'groups'],
    enabled: true,
    autoLink: false,
    created: IDENTITY_T0,
    updated: IDENTITY_T0,
    ...overrides,
  };
}

/** `userId`'s account at `providerId`, its subject unique. */
export function sampleExternalIdentity(
  userId: string,
  providerId: string,
  overrides: Partial<ExternalIdentity> = {},
): ExternalIdentity {
  const id = nextId('27100000');
  return {
    id,
    userId,
    providerId,
    subject: `subject-${made}`,
    email: `upstream${made}@example.org`,
    emailVerified: true,
    created: IDENTITY_T0,
    lastSignIn: null,
    ...overrides,
  };
}

/** A sign-in through `providerId` just started: its state unused, held by the browser's cookie, no code yet. */
export function sampleOAuthAttempt(providerId: string, overrides: Partial<OAuthAttempt> = {}): OAuthAttempt {
  const id = nextId('27200000');
  return {
    id,
    providerId,
    purpose: 'sign_in',
    userId: null,
    redirectTo: '/app/signed-in?from=contract',
    codeChallenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM',
    handoffDigest: null,
    stateDigest: `state-${id}`,
    browserDigest: `browser-${id}`,
    nonce: `nonce-${id}`,
    providerVerifier: { keyId: 'key-1', ciphertext: `verifier-${id}` },
    created: IDENTITY_T0,
    expires: identityAt(600),
    stateUsed: null,
    codeDigest: null,
    codeExpires: null,
    codeUsed: null,
    account: null,
    ...overrides,
  };
}
