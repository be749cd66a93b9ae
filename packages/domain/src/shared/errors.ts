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
  | 'email_already_verified';

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
