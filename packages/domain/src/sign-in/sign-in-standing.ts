import type { EmailVerification } from '../sessions/auth-service.ts';
import type { Principal } from '../sessions/principal.ts';
import { AccountInactiveError, EmailNotVerifiedError } from '../shared/errors.ts';

/**
 * What every way of signing in refuses once the account is known to be the caller's (never
 * before: to anyone else an inactive or unverified account looks like any other): an inactive
 * account, and an unverified address when EMAIL_VERIFICATION is `required`.
 */
export function assertMaySignIn(principal: Principal, emailVerification: EmailVerification): void {
  if (!principal.active) throw new AccountInactiveError();
  if (!principal.emailVerified && emailVerification === 'required') throw new EmailNotVerifiedError();
}
