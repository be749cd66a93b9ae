import { mayHoldSession, type PrincipalSource } from '@uas/domain';
import type { Account, FindAccount } from 'oidc-provider';

/**
 * The claims each scope releases (`sub` always): the ones the service's own tokens carry, so an
 * application gets the same `metadata` and `app` through OpenID Connect.
 */
export const SCOPE_CLAIMS = {
  openid: ['sub'],
  email: ['email', 'email_verified'],
  profile: ['name'],
  metadata: ['metadata'],
  app: ['app'],
} as const;

/**
 * The engine's accounts: users, read through the domain on every use, so a user deactivated,
 * banned or deleted gets no code and no token (the engine answers `invalid_grant`, also to a
 * refresh). Admins are no accounts of applications.
 */
export function findAccount(users: PrincipalSource): FindAccount {
  return async (_ctx, sub): Promise<Account | undefined> => {
    const user = await users.findById(sub);
    if (!user || !mayHoldSession(user)) return undefined;
    return {
      accountId: user.id,
      // The engine keeps of these only what the granted scopes release.
      claims: () => ({
        sub: user.id,
        email: user.email,
        email_verified: user.emailVerified,
        name: user.name,
        metadata: user.claims['metadata'],
        app: user.claims['app'],
      }),
    };
  };
}
