import { mayHoldSession, type PrincipalSource } from '@uas/domain';
import type { Account, FindAccount, KoaContextWithOIDC } from 'oidc-provider';

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
 * How and when the user signed in, in every ID token (from the code and from a refresh alike):
 * the `amr` the sign-in steps gave (`pwd`, `otp`/`hwk`, `mfa`, `fed`), the `acr` made of them, and
 * `auth_time`, so an application can require a second factor or a recent sign-in without asking
 * for `max_age`. The engine states them from the sign-in, never from the account's claims, so
 * userinfo does not carry them.
 */
export const SIGN_IN_CLAIMS = ['acr', 'amr', 'auth_time'] as const;

/**
 * The engine's accounts: users, read through the domain on every use, so a user deactivated,
 * banned or deleted gets no code and no token (the engine answers `invalid_grant`, also to a
 * refresh). Admins are no accounts of applications.
 */
export function findAccount(users: PrincipalSource): FindAccount {
  return async (ctx, sub): Promise<Account | undefined> => {
    const user = await users.findById(sub);
    if (!user || !mayHoldSession(user)) {
      await endSessionOf(ctx, sub);
      return undefined;
    }
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

/**
 * A browser whose signed-in user may no longer sign in: its engine session ends (stored record
 * removed), and this request goes on as a browser nobody signed in to, so the engine asks for a
 * sign-in (`login_required` with `prompt=none`) instead of looking for that user's grant. The
 * engine's session object refuses an empty `accountId`, so the fields go from the object itself.
 */
async function endSessionOf(ctx: KoaContextWithOIDC, sub: string): Promise<void> {
  const session = ctx.oidc?.session;
  if (!session || session.accountId !== sub) return;
  await session.destroy();
  for (const field of ['accountId', 'loginTs', 'amr', 'acr', 'authorizations'] as const) {
    Reflect.deleteProperty(session, field);
  }
}
