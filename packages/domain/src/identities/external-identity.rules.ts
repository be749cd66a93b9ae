import type { ExternalIdentity } from './external-identity.ts';
import type { IdentityProvider } from './identity-provider.ts';
import type { UpstreamAccount } from './oauth-attempt.ts';

/** A new identity of the provider's account for the user; `signedIn` when a sign-in makes it. */
export function newIdentity(
  id: string,
  provider: Pick<IdentityProvider, 'id'>,
  account: UpstreamAccount,
  userId: string,
  now: Date,
  signedIn = true,
): ExternalIdentity {
  const { subject, email, emailVerified } = account;
  return {
    id,
    userId,
    providerId: provider.id,
    subject,
    email,
    emailVerified,
    created: now,
    lastSignIn: signedIn ? now : null,
  };
}
