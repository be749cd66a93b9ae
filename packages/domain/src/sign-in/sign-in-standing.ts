import type { EmailVerification } from '../sessions/auth-service.ts';
import type { Principal } from '../sessions/principal.ts';
import { AccountBannedError, AccountInactiveError, EmailNotVerifiedError } from '../shared/errors.ts';

/**
 * What every way of signing in refuses once the account is known to be the caller's (never
 * before: to anyone else an inactive, banned or unverified account looks like any other): an
 * inactive account, a banned one, and an unverified address when EMAIL_VERIFICATION is `required`.
 */
export function assertMaySignIn(principal: Principal, emailVerification: EmailVerification): void {
  if (!principal.active) throw new AccountInactiveError();
  if (principal.banned) throw new AccountBannedError();
  if (!principal.emailVerified && emailVerification === 'required') throw new EmailNotVerifiedError();
}
