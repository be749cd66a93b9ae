import type { AuthService, SignInSteps } from '@uas/domain';
import { Hono } from 'hono';
import type { AppEnv } from '../app-env';
import { bearerAuth } from '../middleware/bearer-auth';
import { requestContext } from '../network/request-context';
import { sessionExample } from '../openapi/examples';
import { describeRoute } from '../openapi/route-description';
import { sessionDocument, sessionDocumentSchema } from '../presenters/session.presenter';
import { parseLogin, parseRefreshTokenBody, refreshTokenBodySchema } from '../schemas/session.schemas';
import { jsonBody } from '../schemas/validation';
import { LOGIN_ANSWER_DESCRIPTION, LOGIN_ROUTE, logIn, loginAnswerDocument, loginAnswerSchema } from '../session/login';
import { signInStepRoutes } from './sign-in-steps.routes';
import { bodyRefreshToken } from '../session/presented-refresh-token';

const TAGS = ['User session'];
const session = { description: 'The session record.', schema: sessionDocumentSchema, example: sessionExample };
const tokenBody = (purpose: string) => ({
  schema: refreshTokenBodySchema,
  description: `The refresh token ${purpose}.`,
});

/** End-user sign-in, refresh and revocation: the admin rules without the panel's cookie. */
export function userSessionRoutes({ userAuth, userSignIn }: { userAuth: AuthService; userSignIn: SignInSteps }) {
  const refreshTokenBody = jsonBody(parseRefreshTokenBody);
  return new Hono<AppEnv>()
    .post(
      '/v1/login',
      describeRoute({
        operationId: 'userLogin',
        summary: 'Log in as a user',
        description:
          'The access token carries the claims `sub`, `email`, `name`, `metadata`, `app`, `iat`, `exp`, `iss`, `sid`, and how the account proved itself: `amr` (RFC 8176: `pwd`, `otp`, `hwk`, `swk`, `mfa`; `fed` for a sign-in with an identity provider) and `aal` (`aal1`, or `aal2` with a second factor or a passkey). An account with an active second factor gets an `mfa_challenges` resource instead, and no token.',
        tags: TAGS,
        ...LOGIN_ROUTE,
        errors: [...LOGIN_ROUTE.errors, 'email_not_verified'],
        responses: {
          200: { description: LOGIN_ANSWER_DESCRIPTION, schema: loginAnswerSchema, example: sessionExample },
        },
      }),
      jsonBody(parseLogin),
      async (c) => c.json(loginAnswerDocument(await logIn(userSignIn, c, c.req.valid('json'))), 200),
    )
    .route(
      '/',
      signInStepRoutes({
        path: '/v1/login',
        operation: 'user',
        tags: TAGS,
        signIn: userSignIn,
        session,
        respond: (c, grant) => c.json(sessionDocument(grant), 200),
      }),
    )
    .post(
      '/v1/refresh',
      describeRoute({
        operationId: 'userRefresh',
        summary: 'Exchange a refresh token for a new session',
        description: 'Rotation and reuse detection as for administrators.',
        tags: TAGS,
        body: tokenBody('to exchange'),
        responses: { 200: session },
        errors: ['missing_token', 'invalid_token', 'refresh_token_reused'],
      }),
      refreshTokenBody,
      async (c) => {
        const grant = await userAuth.refresh(bodyRefreshToken('refresh', c.req.valid('json')), requestContext(c));
        return c.json(sessionDocument(grant), 200);
      },
    )
    .delete(
      '/v1/refresh',
      describeRoute({
        operationId: 'userRevoke',
        summary: 'Revoke a refresh token',
        tags: TAGS,
        body: tokenBody('to revoke'),
        responses: { 204: { description: 'Revoked (also when it already was).' } },
      }),
      bearerAuth(userAuth),
      refreshTokenBody,
      async (c) => {
        await userAuth.revoke(bodyRefreshToken('revoke', c.req.valid('json')), c.get('identity'), requestContext(c));
        return c.body(null, 204);
      },
    );
}
