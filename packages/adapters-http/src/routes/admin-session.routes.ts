import type { AdminAccess, AuthService, SessionGrant, SignInSteps } from '@uas/domain';
import type { Context } from 'hono';
import { Hono } from 'hono';
import { createFactory } from 'hono/factory';
import type { AppEnv } from '../app-env';
import { adminAccess } from '../middleware/admin-access';
import { requestContext } from '../network/request-context';
import { sessionExample } from '../openapi/examples';
import { describeRoute, type RouteDescription } from '../openapi/route-description';
import { sessionDocument, sessionDocumentSchema } from '../presenters/session.presenter';
import { parseLogin, parseRefreshTokenBody, refreshTokenBodySchema } from '../schemas/session.schemas';
import { jsonBody } from '../schemas/validation';
import { LOGIN_ANSWER_DESCRIPTION, LOGIN_ROUTE, logIn, loginAnswerSchema } from '../session/login';
import { mfaChallengeDocument } from '../presenters/sign-in-challenge.presenter';
import { signInStepRoutes } from './sign-in-steps.routes';
import { adminRefreshToken } from '../session/presented-refresh-token';
import { clearRefreshCookie, refreshCookie, setRefreshCookie } from '../session/refresh-cookie';
import { requireUuidParam } from './uuid-param';

const factory = createFactory<AppEnv>();

const TAGS = ['Admin session'];
const session = {
  description: 'The session record; the refresh token is also set in the session cookie.',
  schema: sessionDocumentSchema,
  headers: ['Set-Cookie'],
  example: sessionExample,
} as const;
const tokenBody = (purpose: string) => ({
  schema: refreshTokenBodySchema,
  optional: true,
  description: `The refresh token ${purpose}; without it, the session cookie's (from this origin only).`,
});

const refreshDescription = (operationId: string): RouteDescription => ({
  operationId,
  summary: 'Exchange a refresh token for a new session',
  description:
    'Rotation: the presented refresh token is retired. Presenting a retired token again revokes its whole session, except within a short grace window.',
  tags: TAGS,
  security: [{}, { refreshCookie: [] }],
  body: tokenBody('to exchange'),
  responses: { 200: session },
  errors: ['missing_token', 'invalid_token', 'refresh_token_reused', 'cross_site_request'],
});

const revokeDescription = (operationId: string): RouteDescription => ({
  operationId,
  summary: 'Revoke a refresh token',
  description: 'Revoking a token already revoked succeeds too.',
  tags: TAGS,
  body: tokenBody('to revoke'),
  responses: {
    204: { description: 'Revoked; the cookie is cleared when it held that token.', headers: ['Set-Cookie'] },
  },
  errors: ['cross_site_request'],
});

/** A session opened by any sign-in step: its record, and its refresh token in the panel's cookie. */
function openedSession(c: Context<AppEnv>, grant: SessionGrant): Response {
  setRefreshCookie(c, grant);
  return c.json(sessionDocument(grant), 200);
}

/** Admin sign-in, refresh (two paths), revocation and logout, with the panel's session cookie. */
export function adminSessionRoutes({
  adminAuth,
  adminAccess: access,
  adminSignIn,
}: {
  adminAuth: AuthService;
  adminAccess: AdminAccess;
  adminSignIn: SignInSteps;
}) {
  const authenticated = adminAccess(access, 'self');
  const refreshTokenBody = jsonBody(parseRefreshTokenBody);

  const refresh = factory.createHandlers(refreshTokenBody, async (c) => {
    const presented = adminRefreshToken(c, 'refresh', c.req.valid('json'));
    try {
      const grant = await adminAuth.refresh(presented.token, requestContext(c));
      setRefreshCookie(c, grant);
      return c.json(sessionDocument(grant), 200);
    } catch (error) {
      if (presented.fromCookie) clearRefreshCookie(c); // a dead cookie would only fail again
      throw error;
    }
  });

  const revoke = factory.createHandlers(authenticated, refreshTokenBody, async (c) => {
    const presented = adminRefreshToken(c, 'revoke', c.req.valid('json'));
    await adminAuth.revoke(presented.token, c.get('identity'), requestContext(c));
    if (presented.token === refreshCookie(c)) clearRefreshCookie(c);
    return c.body(null, 204);
  });

  return new Hono<AppEnv>()
    .post(
      '/v1/admin/login',
      describeRoute({
        operationId: 'adminLogin',
        summary: 'Log in as an administrator',
        description:
          'Wrong email or password give the same answer, in similar time, whether or not the account exists. An administrator with an active second factor gets an `mfa_challenges` resource (no token, no cookie) to answer at `/v1/admin/login/mfa`.',
        tags: TAGS,
        ...LOGIN_ROUTE,
        responses: {
          200: {
            description: LOGIN_ANSWER_DESCRIPTION,
            schema: loginAnswerSchema,
            headers: ['Set-Cookie'],
            example: sessionExample,
          },
        },
      }),
      jsonBody(parseLogin),
      async (c) => {
        const { session: grant, challenge } = await logIn(adminSignIn, c, c.req.valid('json'));
        return grant ? openedSession(c, grant) : c.json(mfaChallengeDocument(challenge), 200);
      },
    )
    .route(
      '/',
      signInStepRoutes({
        path: '/v1/admin/login',
        operation: 'admin',
        tags: TAGS,
        signIn: adminSignIn,
        session,
        respond: openedSession,
      }),
    )
    .post('/v1/admin/refresh', describeRoute(refreshDescription('adminRefresh')), ...refresh)
    .post('/v1/admin/token/refresh', describeRoute(refreshDescription('adminTokenRefresh')), ...refresh)
    .delete('/v1/admin/refresh', describeRoute(revokeDescription('adminRevoke')), ...revoke)
    .delete('/v1/admin/token/refresh', describeRoute(revokeDescription('adminTokenRevoke')), ...revoke)
    .delete(
      '/v1/admin/logout/:id',
      describeRoute({
        operationId: 'adminLogout',
        summary: 'End every session of the calling administrator',
        description: "Its refresh and access tokens stop working at once. Another account's id → 403.",
        tags: TAGS,
        responses: { 204: { description: 'Logged out; the session cookie is cleared.', headers: ['Set-Cookie'] } },
      }),
      authenticated,
      requireUuidParam('account'),
      async (c) => {
        await adminAuth.logout(c.get('identity'), c.req.param('id'), requestContext(c));
        clearRefreshCookie(c);
        return c.body(null, 204);
      },
    );
}
