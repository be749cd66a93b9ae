import type { SignInOutcome, SignInSteps } from '@uas/domain';
import * as v from 'valibot';
import type { Context } from 'hono';
import type { AppEnv } from '../app-env';
import { requestContext } from '../network/request-context';
import { loginExample } from '../openapi/examples';
import type { RouteDescription } from '../openapi/route-description';
import { mfaChallengeDocument, mfaChallengeDocumentSchema } from '../presenters/sign-in-challenge.presenter';
import { sessionDocument, sessionDocumentSchema } from '../presenters/session.presenter';
import { loginDocument } from '../schemas/session.schemas';

/** The login document both logins take, and the refusals they share, admin or user alike. */
export const LOGIN_ROUTE = {
  body: { schema: loginDocument, example: loginExample },
  errors: ['resource_conflict', 'invalid_credentials', 'account_inactive', 'too_many_attempts'],
} as const satisfies Pick<RouteDescription, 'body' | 'errors'>;

/** What a login answers: the session, or for an account with an active second factor its challenge. */
export const loginAnswerSchema = v.union([sessionDocumentSchema, mfaChallengeDocumentSchema]);

/** A first step's answer (a password, an identity provider's code): the session record, or the second step's challenge. */
export const loginAnswerDocument = ({ session, challenge }: SignInOutcome): v.InferOutput<typeof loginAnswerSchema> =>
  session ? sessionDocument(session) : mfaChallengeDocument(challenge);

export const LOGIN_ANSWER_DESCRIPTION =
  'The session record; or, for an account with an active second factor, an `mfa_challenges` resource and no token: answer it at the second step within its expiry.';

/** The password step with a login document's credentials, throttled by the client's address. */
export function logIn(
  signIn: SignInSteps,
  c: Context<AppEnv>,
  { email, password }: { email: string; password: string },
) {
  return signIn.password.login(email, password, c.get('client').address, requestContext(c));
}
