import {
  AccountInactiveError,
  FactorAlreadyActiveError,
  IdentityAlreadyLinkedError,
  IdentityEmailMissingError,
  IdentityNotLinkedError,
  IdentityProviderError,
  InvalidOAuthCodeError,
  InvalidOAuthStateError,
  LastSignInMethodError,
  SlugTakenError,
  InvalidChallengeError,
  InvalidSecondFactorError,
  MfaEnrolmentRequiredError,
  SecondFactorRequiredError,
  LastOwnerError,
  AccountBannedError,
  ImpersonationDisabledError,
  DatabaseUnavailableError,
  type DomainError,
  EmailAlreadyVerifiedError,
  EmailTakenError,
  ForbiddenError,
  EmailNotVerifiedError,
  InvalidCredentialsError,
  InvalidTokenError,
  InvalidActionTokenError,
  NotFoundError,
  PreconditionFailedError,
  RefreshTokenReusedError,
  SignupDisabledError,
  TooManyAttemptsError,
  ValidationError,
  type ErrorCode,
} from '@uas/domain';
import { Hono } from 'hono';
import { HTTPException } from 'hono/http-exception';
import { describe, expect, it } from 'vitest';
import type { AppEnv } from '../app-env';
import { RecordingLogger } from '../testing';
import { errorHandler, notFoundHandler } from './on-error';

function appThrowing(error: unknown, logger = new RecordingLogger(), jsonBody?: unknown) {
  const app = new Hono<AppEnv>()
    .use(async (c, next) => {
      c.set('requestId', 'req-1');
      // What the body guard keeps of a JSON body.
      if (jsonBody !== undefined) c.set('jsonBody', jsonBody);
      await next();
    })
    .get('/boom', () => {
      throw error;
    });
  app.onError(errorHandler(logger));
  app.notFound(notFoundHandler(() => app.routes));
  return app;
}

/** Each domain error code with the status and title the contract gives it, written out, not read from the table. */
const samples: Record<ErrorCode, { error: DomainError; status: number; title: string }> = {
  invalid_attribute: {
    error: new ValidationError([{ source: { pointer: '/data/attributes/email' }, detail: 'email is bad' }]),
    status: 422,
    title: 'Invalid attribute',
  },
  email_taken: { error: new EmailTakenError(), status: 409, title: 'Email taken' },
  not_found: { error: new NotFoundError('user'), status: 404, title: 'Not found' },
  invalid_credentials: { error: new InvalidCredentialsError(), status: 401, title: 'Invalid credentials' },
  email_not_verified: { error: new EmailNotVerifiedError(), status: 403, title: 'Email not verified' },
  account_inactive: { error: new AccountInactiveError(), status: 403, title: 'Account inactive' },
  invalid_token: { error: new InvalidTokenError(), status: 401, title: 'Invalid token' },
  invalid_action_token: { error: new InvalidActionTokenError(), status: 400, title: 'Invalid token' },
  refresh_token_reused: { error: new RefreshTokenReusedError(), status: 401, title: 'Refresh token reused' },
  forbidden: { error: new ForbiddenError('no'), status: 403, title: 'Forbidden' },
  signup_disabled: { error: new SignupDisabledError(), status: 403, title: 'Sign-up disabled' },
  too_many_attempts: { error: new TooManyAttemptsError(42), status: 429, title: 'Too many attempts' },
  precondition_failed: { error: new PreconditionFailedError(), status: 412, title: 'Precondition failed' },
  email_already_verified: { error: new EmailAlreadyVerifiedError(), status: 409, title: 'Email already verified' },
  database_unavailable: { error: new DatabaseUnavailableError(), status: 503, title: 'Database unavailable' },
  invalid_second_factor: { error: new InvalidSecondFactorError(), status: 401, title: 'Invalid second factor' },
  invalid_challenge: { error: new InvalidChallengeError(), status: 401, title: 'Invalid challenge' },
  second_factor_required: { error: new SecondFactorRequiredError(), status: 403, title: 'Second factor required' },
  last_owner: { error: new LastOwnerError(), status: 409, title: 'Last owner' },
  account_banned: { error: new AccountBannedError(), status: 403, title: 'Account banned' },
  impersonation_disabled: { error: new ImpersonationDisabledError(), status: 403, title: 'Impersonation disabled' },
  mfa_enrolment_required: {
    error: new MfaEnrolmentRequiredError(),
    status: 403,
    title: 'Second factor enrolment required',
  },
  factor_already_active: { error: new FactorAlreadyActiveError(), status: 409, title: 'Factor already active' },
  slug_taken: { error: new SlugTakenError(), status: 409, title: 'Slug taken' },
  identity_provider_error: {
    error: new IdentityProviderError('timeout'),
    status: 502,
    title: 'Identity provider error',
  },
  invalid_oauth_state: { error: new InvalidOAuthStateError(), status: 400, title: 'Invalid OAuth state' },
  invalid_oauth_code: { error: new InvalidOAuthCodeError(), status: 400, title: 'Invalid OAuth code' },
  identity_not_linked: { error: new IdentityNotLinkedError(), status: 409, title: 'Identity not linked' },
  identity_already_linked: { error: new IdentityAlreadyLinkedError(), status: 409, title: 'Identity already linked' },
  identity_email_missing: { error: new IdentityEmailMissingError(), status: 422, title: 'Identity email missing' },
  last_sign_in_method: { error: new LastSignInMethodError(), status: 409, title: 'Last sign-in method' },
};

describe('onError maps every domain error code through one table', () => {
  it.each(Object.entries(samples))(
    '%s → its status and title, as a JSON:API error document',
    async (code, { error, status, title }) => {
      const response = await appThrowing(error).request('/boom');
      expect(response.status).toBe(status);
      expect(response.headers.get('content-type')).toMatch(/^application\/json/);
      const body = await response.json();
      expect(body.errors).toHaveLength(1);
      expect(body.errors[0]).toMatchObject({
        status: String(status),
        // A refused mailed link shares the bearer token's public code, at its own status.
        code: code === 'invalid_action_token' ? 'invalid_token' : code,
        title,
        detail: error instanceof ValidationError ? error.issues[0]?.detail : error.message,
      });
    },
  );

  it('gives each validation issue its own error object with its source', async () => {
    const error = new ValidationError([
      { source: { pointer: '/data/attributes/email' }, detail: 'email must be a valid email address' },
      { source: { parameter: 'page[size]' }, detail: 'too big' },
    ]);
    const body = await (await appThrowing(error).request('/boom')).json();
    expect(body.errors).toEqual([
      {
        status: '422',
        code: 'invalid_attribute',
        title: 'Invalid attribute',
        detail: 'email must be a valid email address',
        source: { pointer: '/data/attributes/email' },
      },
      {
        status: '422',
        code: 'invalid_attribute',
        title: 'Invalid attribute',
        detail: 'too big',
        source: { parameter: 'page[size]' },
      },
    ]);
  });

  it('points a taken email at /data/attributes/email when the body has it, and nowhere when it has not', async () => {
    const sent = { data: { type: 'users', attributes: { email: 'taken@example.com' } } };
    const pointed = await (await appThrowing(new EmailTakenError(), undefined, sent).request('/boom')).json();
    expect(pointed.errors[0].source).toEqual({ pointer: '/data/attributes/email' });
    for (const body of [undefined, { token: 'a-token', password: 'a-password' }, { data: null }]) {
      const unpointed = await (await appThrowing(new EmailTakenError(), undefined, body).request('/boom')).json();
      expect(unpointed.errors[0]).not.toHaveProperty('source');
      expect(unpointed.errors[0].code).toBe('email_taken');
    }
  });

  it.each([
    ['invalid_token', 'Bearer error="invalid_token"'],
    ['refresh_token_reused', 'Bearer error="invalid_token"'],
    ['invalid_credentials', 'Bearer'],
  ] as const)('401 %s carries WWW-Authenticate: %s', async (code, challenge) => {
    const response = await appThrowing(samples[code].error).request('/boom');
    expect(response.headers.get('www-authenticate')).toBe(challenge);
  });

  it('429 carries Retry-After in seconds', async () => {
    const response = await appThrowing(new TooManyAttemptsError(42)).request('/boom');
    expect(response.headers.get('retry-after')).toBe('42');
  });

  it('503 database_unavailable carries Retry-After, is not cached, and is logged as a warning', async () => {
    const logger = new RecordingLogger();
    const response = await appThrowing(new DatabaseUnavailableError(), logger).request('/boom');
    expect(response.status).toBe(503);
    expect(response.headers.get('retry-after')).toBe('2');
    expect(response.headers.get('cache-control')).toBe('no-store');
    expect(logger.entries.map(({ msg }) => msg)).toContain('database unavailable');
  });
});

describe('onError for faults', () => {
  it('answers 500 with a generic message and the request id, and logs name and message only', async () => {
    const logger = new RecordingLogger();
    const fault = new TypeError('SELECT password_hash FROM users failed');
    const response = await appThrowing(fault, logger).request('/boom');
    expect(response.status).toBe(500);
    const text = await response.text();
    expect(text).not.toContain('SELECT');
    expect(text).not.toContain('TypeError');
    expect(text).not.toContain('at ');
    expect(JSON.parse(text).errors[0]).toMatchObject({
      status: '500',
      code: 'internal_error',
      title: 'Internal error',
      id: 'req-1',
    });
    expect(JSON.parse(text).errors[0].detail).toContain('req-1');
    expect(logger.entries).toEqual([
      {
        level: 'error',
        msg: 'unexpected error',
        fields: { requestId: 'req-1', error: 'TypeError', message: fault.message },
      },
    ]);
    expect(logger.text()).not.toContain('    at ');
  });

  it('turns a stray client-side HTTPException into a JSON error of its status', async () => {
    const response = await appThrowing(new HTTPException(400, { message: 'raw detail' })).request('/boom');
    expect(response.status).toBe(400);
    const text = await response.text();
    expect(text).not.toContain('raw detail');
    expect(JSON.parse(text).errors[0]).toMatchObject({ status: '400', code: 'bad_request', title: 'Bad request' });
  });

  it('answers unknown routes with a JSON 404', async () => {
    const response = await appThrowing(new Error()).request('/nowhere');
    expect(response.status).toBe(404);
    expect((await response.json()).errors[0]).toMatchObject({
      status: '404',
      code: 'route_not_found',
      title: 'Route not found',
    });
  });
});
