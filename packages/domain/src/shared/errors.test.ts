import { describe, expect, it } from '../testing/test-api.ts';
import {
  AccountInactiveError,
  DatabaseUnavailableError,
  DomainError,
  EmailTakenError,
  ForbiddenError,
  InvalidCredentialsError,
  InvalidTokenError,
  NotFoundError,
  RefreshTokenReusedError,
  TooManyAttemptsError,
  ValidationError,
} from './errors.ts';

describe('the error catalogue', () => {
  const issue = { source: { pointer: '/data/attributes/email' }, detail: 'email is required' };
  it.each([
    { error: new ValidationError([issue]), code: 'invalid_attribute' },
    { error: new EmailTakenError(), code: 'email_taken' },
    { error: new NotFoundError('user'), code: 'not_found' },
    { error: new InvalidCredentialsError(), code: 'invalid_credentials' },
    { error: new AccountInactiveError(), code: 'account_inactive' },
    { error: new InvalidTokenError(), code: 'invalid_token' },
    { error: new RefreshTokenReusedError(), code: 'refresh_token_reused' },
    { error: new ForbiddenError('no'), code: 'forbidden' },
    { error: new TooManyAttemptsError(5), code: 'too_many_attempts' },
    { error: new DatabaseUnavailableError(), code: 'database_unavailable' },
  ])('$error.constructor.name carries the stable code $code and a message', ({ error, code }) => {
    expect(error).toBeInstanceOf(DomainError);
    expect(error.code).toBe(code);
    expect(error.message).not.toBe('');
  });

  it('ValidationError keeps every issue and joins their details into its message', () => {
    const issues = [
      { source: { pointer: '/data/attributes/email' }, detail: 'email is required' },
      { source: { parameter: 'page[size]' }, detail: 'page[size] must be at most 100' },
    ];
    const error = new ValidationError(issues);
    expect(error.issues).toEqual(issues);
    expect(error.message).toBe('email is required; page[size] must be at most 100');
  });

  it('TooManyAttemptsError tells how long to wait', () => {
    expect(new TooManyAttemptsError(42).retryAfterSeconds).toBe(42);
  });
});
