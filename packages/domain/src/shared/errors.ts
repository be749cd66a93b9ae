/**
 * The domain's error catalogue. Each error carries a stable snake_case `code` that is part of
 * the public API; adapters map codes to transport statuses, never messages.
 */
export type ErrorCode =
  | 'invalid_attribute'
  | 'email_taken'
  | 'not_found'
  | 'invalid_credentials'
  | 'account_inactive'
  | 'email_not_verified'
  | 'invalid_token'
  | 'invalid_action_token'
  | 'refresh_token_reused'
  | 'forbidden'
  | 'signup_disabled'
  | 'too_many_attempts'
  | 'precondition_failed'
  | 'email_already_verified'
  | 'database_unavailable'
  | 'invalid_second_factor'
  | 'invalid_challenge'
  | 'second_factor_required'
  | 'mfa_enrolment_required'
  | 'factor_already_active'
  | 'last_owner'
  | 'account_banned'
  | 'impersonation_disabled'
  | 'slug_taken'
  | 'identity_provider_error'
  | 'invalid_oauth_state'
  | 'invalid_oauth_code'
  | 'identity_not_linked'
  | 'identity_already_linked'
  | 'identity_email_missing'
  | 'last_sign_in_method';

export abstract class DomainError extends Error {
  abstract readonly code: ErrorCode;
}

/** Where in a request a problem lies: a JSON pointer into the body, or a query parameter. */
export type ProblemSource = { pointer: string } | { parameter: string };

export interface ValidationIssue {
  source: ProblemSource;
  detail: string;
}

export class ValidationError extends DomainError {
  readonly code = 'invalid_attribute';
  constructor(readonly issues: readonly ValidationIssue[]) {
    super(issues.map((issue) => issue.detail).join('; '));
  }
}

export class EmailTakenError extends DomainError {
  readonly code = 'email_taken';
  constructor() {
    super('This email address is already in use.');
  }
}

export class NotFoundError extends DomainError {
  readonly code = 'not_found';
  constructor(readonly resource: string) {
    super(`No ${resource} with that id exists.`);
  }
}

export class InvalidCredentialsError extends DomainError {
  readonly code = 'invalid_credentials';
  constructor() {
    super('The email or password is wrong.');
  }
}

export class AccountInactiveError extends DomainError {
  readonly code = 'account_inactive';
  constructor() {
    super('This account is not active.');
  }
}

/** The right password of a user whose address is not verified, while verification is required. */
export class EmailNotVerifiedError extends DomainError {
  readonly code = 'email_not_verified';
  constructor() {
    super('This email address is not verified yet; follow the link in the verification message.');
  }
}

export class InvalidTokenError extends DomainError {
  readonly code = 'invalid_token';
  constructor(detail = 'The token is missing, malformed, expired, revoked or not issued by this service.') {
    super(detail);
  }
}

/**
 * A single-use token (a mailed link's) that is wrong, malformed, used, voided or expired: one
 * answer for all, so none tells them apart. On the wire it is `invalid_token` with status 400.
 */
export class InvalidActionTokenError extends DomainError {
  readonly code = 'invalid_action_token';
  constructor() {
    super('The link is invalid, used or expired.');
  }
}

/** An address is verified already: there is nothing to send a verification link for. */
export class EmailAlreadyVerifiedError extends DomainError {
  readonly code = 'email_already_verified';
  constructor() {
    super('The address is verified already.');
  }
}

export class RefreshTokenReusedError extends DomainError {
  readonly code = 'refresh_token_reused';
  constructor() {
    super('This refresh token was already used; every token of its session has been revoked.');
  }
}

export class ForbiddenError extends DomainError {
  readonly code = 'forbidden';
  constructor(detail: string) {
    super(detail);
  }
}

/** A sign-up while SIGNUP is `invite-only` or `closed`: accounts come from an administrator only. */
export class SignupDisabledError extends DomainError {
  readonly code = 'signup_disabled';
  constructor() {
    super('Signing up is not open on this service; ask an administrator for an account.');
  }
}

export class TooManyAttemptsError extends DomainError {
  readonly code = 'too_many_attempts';
  constructor(
    readonly retryAfterSeconds: number,
    detail = 'Too many failed login attempts; try again later.',
  ) {
    super(detail);
  }
}

/** A conditional change found the record changed since the client last saw it. */
export class PreconditionFailedError extends DomainError {
  readonly code = 'precondition_failed';
  constructor() {
    super('The user has changed since you read it; read it again, then reapply your change.');
  }
}

/**
 * The database could not be reached, or dropped the connection mid-request (it restarts, fails
 * over, or its pooler does): nothing was acknowledged, and the same request may be retried once
 * it is back. Adapters subclass it to keep their cause for the log; the client learns only when
 * to retry.
 */
export class DatabaseUnavailableError extends DomainError {
  readonly code = 'database_unavailable';
  readonly retryAfterSeconds = 2;
  constructor() {
    super('The database is unavailable for a moment; retry the request in a few seconds.');
  }
}

/** A TOTP code, recovery code or passkey assertion that is wrong, used already or not this account's. */
export class InvalidSecondFactorError extends DomainError {
  readonly code = 'invalid_second_factor';
  constructor() {
    super('The code or passkey is wrong, or was used already.');
  }
}

/** A sign-in challenge that is unknown, completed, expired or ended by too many wrong answers. */
export class InvalidChallengeError extends DomainError {
  readonly code = 'invalid_challenge';
  constructor() {
    super('The sign-in challenge is unknown, used or expired; log in again.');
  }
}

/** A change to the second factors without a recent second-factor proof (step-up). */
export class SecondFactorRequiredError extends DomainError {
  readonly code = 'second_factor_required';
  constructor() {
    super('Confirm this change with a second factor: send a `code` or `credential`, or log in again with one.');
  }
}

/** ADMIN_MFA is `required` and this admin has no active factor yet: only enrolment is open. */
export class MfaEnrolmentRequiredError extends DomainError {
  readonly code = 'mfa_enrolment_required';
  constructor() {
    super('Administrators must enrol a second factor before anything else (ADMIN_MFA is required).');
  }
}

/** A verify of a factor that is active already. */
export class FactorAlreadyActiveError extends DomainError {
  readonly code = 'factor_already_active';
  constructor() {
    super('This factor is active already.');
  }
}

/** A change that would leave no administrator with the role `owner`. */
export class LastOwnerError extends DomainError {
  readonly code = 'last_owner';
  constructor() {
    super('This is the last owner: make another administrator an owner first.');
  }
}

/** A banned user's login with the right password (a wrong one stays invalid_credentials). */
export class AccountBannedError extends DomainError {
  readonly code = 'account_banned';
  constructor() {
    super('This account is banned.');
  }
}

/** Impersonation while IMPERSONATION is not `on`. */
export class ImpersonationDisabledError extends DomainError {
  readonly code = 'impersonation_disabled';
  constructor() {
    super('Impersonation is off on this service (IMPERSONATION).');
  }
}

/** An identity provider's slug that another provider has already. */
export class SlugTakenError extends DomainError {
  readonly code = 'slug_taken';
  constructor() {
    super('Another identity provider has this slug.');
  }
}

/** The identity provider failed us: unreachable, an error answer, or a token that did not verify. */
export class IdentityProviderError extends DomainError {
  readonly code = 'identity_provider_error';
  /** `reason` is for the log (never a secret); the client is told only that the provider failed. */
  constructor(readonly reason: string) {
    super('The identity provider could not vouch for the account.');
  }
}

/** A callback whose state is unknown, spent, expired, another provider's or another browser's. */
export class InvalidOAuthStateError extends DomainError {
  readonly code = 'invalid_oauth_state';
  constructor() {
    super('This sign-in is unknown, expired or was already used; start again.');
  }
}

/** A one-time code that is unknown, spent or expired, or a code_verifier that does not match it. */
export class InvalidOAuthCodeError extends DomainError {
  readonly code = 'invalid_oauth_code';
  constructor() {
    super('The code is invalid, expired or was already used.');
  }
}

/**
 * A first sign-in with an email that already belongs to a user, which may not link on its own:
 * the user signs in the usual way and links the provider from there.
 */
export class IdentityNotLinkedError extends DomainError {
  readonly code = 'identity_not_linked';
  constructor() {
    super('Sign in with your password and link this provider from your account first.');
  }
}

/** This account at the provider is linked to a user already. */
export class IdentityAlreadyLinkedError extends DomainError {
  readonly code = 'identity_already_linked';
  constructor() {
    super('This account at the provider is linked to a user already.');
  }
}

/** A provider that gave no email for an account that would need one (a new user). */
export class IdentityEmailMissingError extends DomainError {
  readonly code = 'identity_email_missing';
  constructor() {
    super('The identity provider gave no email address for this account.');
  }
}

/** Removing the user's last way to sign in (no password, no passkey, no other identity). */
export class LastSignInMethodError extends DomainError {
  readonly code = 'last_sign_in_method';
  constructor() {
    super('This is the last way to sign in to this account: set a password or link another first.');
  }
}
