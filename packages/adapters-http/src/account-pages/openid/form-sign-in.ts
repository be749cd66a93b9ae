import {
  DomainError,
  InvalidSecondFactorError,
  TooManyAttemptsError,
  type IssuedChallenge,
  type RequestContext,
  type SecondStepKind,
  type SessionGrant,
  type SignInOutcome,
  type SignInSteps,
} from '@uas/domain';

/** The second step a sign-in waits for: its handle (kept in the form) and the kinds of answer the account has. */
export interface PendingSecondStep {
  readonly handle: string;
  readonly kinds: readonly SecondStepKind[];
}

/** Where a posted sign-in form stands: signed in, waiting for the second step, or refused in words. */
export type FormSignIn =
  | { readonly state: 'signed_in'; readonly grant: SessionGrant }
  | { readonly state: 'second_step'; readonly pending: PendingSecondStep; readonly refusal: Refusal | null }
  | { readonly state: 'refused'; readonly refusal: Refusal };

/** Why a sign-in did not go on, as the page says it, with the status it answers and how long to wait. */
export interface Refusal {
  readonly status: 400 | 401 | 403 | 429;
  readonly text: string;
  readonly retryAfterSeconds?: number;
}

/**
 * The refusals of the sign-in steps, by the domain's error code, in words. None tells whether an
 * account exists: a wrong password and an unknown address read the same, and the account's
 * standing is told only once its password was right (as the API tells it). The external
 * providers' outcomes are here too: they come back as these codes in `error`.
 */
const REFUSALS: Readonly<Record<string, Refusal>> = {
  invalid_credentials: { status: 401, text: 'The email address or password is not right.' },
  too_many_attempts: { status: 429, text: 'Too many failed attempts. Wait a few minutes, then try again.' },
  account_inactive: { status: 403, text: 'This account is not active, so it cannot sign in.' },
  account_banned: { status: 403, text: 'This account is banned, so it cannot sign in.' },
  email_not_verified: {
    status: 403,
    text: 'Verify your email address first: follow the link in the message you were sent.',
  },
  invalid_second_factor: { status: 401, text: 'That code is not right, or it was used already.' },
  invalid_challenge: { status: 400, text: 'This sign-in took too long or was ended. Sign in again.' },
  invalid_oauth_code: { status: 400, text: 'The sign-in with the other service did not finish. Try again.' },
  invalid_oauth_state: { status: 400, text: 'The sign-in with the other service did not finish. Try again.' },
  identity_not_linked: {
    status: 403,
    text: 'That account is not linked to an account here. Sign in with your password, then link it in your application.',
  },
  signup_disabled: { status: 403, text: 'No account here uses that account, and signing up is closed.' },
  identity_provider_error: { status: 400, text: 'The other service could not confirm who you are. Try again.' },
};

const UNKNOWN_REFUSAL: Refusal = { status: 400, text: 'The sign-in did not work. Try again.' };

/** The words of a refusal by its code (a provider's `error`, as the callback sends it on). */
export const refusalOf = (code: string): Refusal => (Object.hasOwn(REFUSALS, code) ? REFUSALS[code]! : UNKNOWN_REFUSAL);

/** The refusal a domain error stands for, or the error again when it is not a sign-in's refusal. */
function refusalFor(error: unknown): Refusal {
  if (!(error instanceof DomainError) || !Object.hasOwn(REFUSALS, error.code)) throw error;
  const refusal = REFUSALS[error.code]!;
  return error instanceof TooManyAttemptsError ? { ...refusal, retryAfterSeconds: error.retryAfterSeconds } : refusal;
}

const pendingOf = (challenge: IssuedChallenge): PendingSecondStep => ({
  handle: challenge.handle,
  kinds: challenge.kinds,
});

/** What a first step (a password, a provider's code) ended in. */
export async function firstStep(step: Promise<SignInOutcome>): Promise<FormSignIn> {
  try {
    const outcome = await step;
    return outcome.session
      ? { state: 'signed_in', grant: outcome.session }
      : { state: 'second_step', pending: pendingOf(outcome.challenge), refusal: null };
  } catch (error) {
    return { state: 'refused', refusal: refusalFor(error) };
  }
}

const SECOND_STEP_KINDS = new Set<string>(['totp', 'webauthn', 'recovery_code']);

/**
 * A posted sign-in form, through the service's sign-in steps: the second step when the form
 * carries a challenge's handle (a TOTP or recovery code), else the password step, throttled as
 * every login is. A wrong code keeps the challenge (it allows a few), anything else ends it.
 */
export async function signInWithForm(
  steps: SignInSteps,
  form: URLSearchParams,
  request: RequestContext & { clientAddress: string },
): Promise<FormSignIn> {
  const handle = form.get('challenge');
  if (handle === null) {
    const email = form.get('email') ?? '';
    const password = form.get('password') ?? '';
    return firstStep(steps.password.login(email, password, request.clientAddress, request));
  }
  // The kinds only choose the form's words; the challenge alone decides what is accepted.
  const kinds = (form.get('kinds') ?? '')
    .split(' ')
    .filter((kind): kind is SecondStepKind => SECOND_STEP_KINDS.has(kind));
  try {
    return {
      state: 'signed_in',
      grant: await steps.secondStep.complete(handle, { code: form.get('code') ?? '' }, request),
    };
  } catch (error) {
    const refusal = refusalFor(error);
    return error instanceof InvalidSecondFactorError
      ? { state: 'second_step', pending: { handle, kinds }, refusal }
      : { state: 'refused', refusal };
  }
}
