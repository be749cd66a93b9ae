import type { AuditChanges } from '../audit/audit-event.ts';
import type { ExternalIdentity } from './external-identity.ts';
import type { IdentityProvider } from './identity-provider.ts';
import type { UpstreamAccount } from './oauth-attempt.ts';

/**
 * What a user's identity event records: which provider and which account there, `after` alone
 * for a link, `before` alone for an unlink, both for a sign-in through it.
 */
export function identityChanges(
  provider: Pick<IdentityProvider, 'slug'>,
  identity: Pick<ExternalIdentity, 'subject'>,
  change: 'linked' | 'unlinked' | 'signed_in',
): AuditChanges {
  const named = { provider: provider.slug, subject: identity.subject };
  return {
    identity: { before: change === 'linked' ? null : named, after: change === 'unlinked' ? null : named },
  };
}

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
