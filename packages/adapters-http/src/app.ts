import { Hono } from 'hono';
import type { AppEnv } from './app-env';
import { errorHandler, notFoundHandler } from './errors/on-error';
import type { HttpAppDeps } from './http-app-deps';
import { accessLog } from './middleware/access-log';
import type { AccountActions } from './account-pages/account-actions';
import { accountPagesRoutes, ACCOUNT_FORM_PATHS } from './account-pages/account-pages.routes';
import {
  OPENID_FORM_PATH_PATTERN,
  OPENID_FORM_PATHS,
  openIdPagesRoutes,
} from './account-pages/openid/openid-pages.routes';
import { bodyGuard } from './middleware/body-guard';
import { cors } from './middleware/cors';
import { requestMetrics } from './middleware/request-metrics';
import { requestId } from './middleware/request-id';
import { securityHeaders } from './middleware/security-headers';
import { clientInfo } from './network/client-info';
import { adminAccountsRoutes } from './routes/admin-accounts.routes';
import { adminWebhooksRoutes } from './routes/admin-webhooks.routes';
import { adminIdentityProvidersRoutes } from './routes/admin-identity-providers.routes';
import { adminOAuthClientsRoutes } from './routes/admin-oauth-clients.routes';
import { adminUserIdentitiesRoutes } from './routes/admin-user-identities.routes';
import { adminAuditRoutes } from './routes/admin-audit.routes';
import { adminInvitationsRoutes } from './routes/admin-invitations.routes';
import { adminMailRoutes } from './routes/admin-mail.routes';
import { adminWebhookDeliveriesRoutes } from './routes/admin-webhook-deliveries.routes';
import { adminPanelRoutes } from './routes/admin-panel.routes';
import { adminSessionRoutes } from './routes/admin-session.routes';
import { adminStatsRoutes } from './routes/admin-stats.routes';
import { adminUserSessionsRoutes } from './routes/admin-user-sessions.routes';
import { adminUserImpersonationRoutes } from './routes/admin-user-impersonation.routes';
import { adminUsersRoutes } from './routes/admin-users.routes';
import { adminUserRecoveryRoutes } from './routes/admin-user-recovery.routes';
import { adminUserBanRoutes } from './routes/admin-user-ban.routes';
import { recoveryRoutes } from './routes/recovery.routes';
import { apiReferenceRoutes } from './routes/api-reference.routes';
import { adminUserTransferRoutes, IMPORT_PATH } from './routes/admin-user-transfer.routes';
import { landingRoutes } from './routes/landing.routes';
import { healthRoutes } from './routes/health.routes';
import { invitationsRoutes } from './routes/invitations.routes';
import { jwksRoutes } from './routes/jwks.routes';
import { meSessionsRoutes } from './routes/me-sessions.routes';
import { adminMeFactorsRoutes, meFactorsRoutes } from './routes/me-factors.routes';
import { adminUserFactorsRoutes } from './routes/admin-user-factors.routes';
import { adminMfaGate } from './middleware/admin-mfa-gate';
import { meRoutes } from './routes/me.routes';
import { meEmailRoutes } from './routes/me-email.routes';
import { signupRoutes } from './routes/signup.routes';
import { verifyRoutes } from './routes/verify.routes';
import { metricsRoutes } from './routes/metrics.routes';
import { openApiRoutes } from './routes/openapi.routes';
import { readyRoutes } from './routes/ready.routes';
import { userSessionRoutes } from './routes/user-session.routes';
import { OAUTH_CALLBACK_PATH, oauthRoutes } from './routes/oauth.routes';
import { meApplicationsRoutes } from './routes/me-applications.routes';
import { meIdentitiesRoutes } from './routes/me-identities.routes';

/** What the `/account/` pages do: the use cases the JSON endpoints call. */
const accountActions = ({ verification, recovery, invitations, adminAccounts }: HttpAppDeps): AccountActions => ({
  verify: (token, request) => verification.verify(token, request),
  resetPassword: (token, password, request) => recovery.reset(token, password, request),
  acceptInvitation: (token, password, request) => invitations.accept(token, password, request),
  acceptAdminInvitation: async (token, password, request) => {
    await adminAccounts.accept(token, password, request);
  },
});

/**
 * The whole HTTP side of the service. Middleware order matters: the request id comes first so
 * that every log line and response names it; metrics see every answer, errors included; the body
 * guard runs before any route or auth check.
 */
export function createHttpApp(deps: HttpAppDeps) {
  const app = new Hono<AppEnv>().use(requestId()).use(accessLog(deps.logger));
  if (deps.metricsEndpoint !== null) app.use(requestMetrics(deps.metricsEndpoint.metrics));
  app.use(securityHeaders());
  // Before anything that may refuse the request, so that a refusal is readable by an allowed
  // origin; not on every request's path when no origin is listed.
  if (deps.corsOrigins.length > 0) app.use(cors(deps.corsOrigins));
  app
    .use(clientInfo(deps.trustedProxies))
    // The import streams a body of its own kind and size; its route checks both. The account
    // pages' forms are URL-encoded, as a browser posts them without script, and so is what an
    // identity provider posts to its callback (Apple's form_post).
    .use(
      bodyGuard({
        streamedPaths: [IMPORT_PATH],
        formPaths: [...ACCOUNT_FORM_PATHS, ...OPENID_FORM_PATHS],
        formPathPatterns: [OAUTH_CALLBACK_PATH, OPENID_FORM_PATH_PATTERN],
      }),
    )
    .use(adminMfaGate({ mode: deps.adminMfa, adminAuth: deps.adminAuth, factors: deps.factors }));
  if (deps.panelRoot !== null) app.route('/', adminPanelRoutes(deps.panelRoot));
  app
    .route('/', adminSessionRoutes(deps))
    .route('/', adminUserTransferRoutes(deps))
    .route('/', adminUsersRoutes(deps))
    .route('/', adminUserSessionsRoutes(deps))
    .route('/', adminUserImpersonationRoutes(deps))
    .route('/', adminUserFactorsRoutes(deps))
    .route('/', adminUserIdentitiesRoutes(deps))
    .route('/', adminMeFactorsRoutes(deps))
    .route('/', adminUserRecoveryRoutes(deps))
    .route('/', adminUserBanRoutes(deps))
    .route('/', adminStatsRoutes(deps))
    .route('/', adminAuditRoutes(deps))
    .route('/', adminMailRoutes(deps))
    .route('/', adminWebhookDeliveriesRoutes(deps))
    .route('/', adminInvitationsRoutes(deps))
    .route('/', adminAccountsRoutes(deps))
    .route('/', adminWebhooksRoutes(deps))
    .route('/', adminIdentityProvidersRoutes(deps))
    .route('/', adminOAuthClientsRoutes(deps))
    .route('/', invitationsRoutes(deps))
    .route('/', userSessionRoutes(deps))
    .route('/', signupRoutes(deps))
    .route('/', verifyRoutes(deps))
    .route('/', recoveryRoutes(deps))
    .route('/', meRoutes(deps))
    .route('/', meEmailRoutes(deps))
    .route('/', meSessionsRoutes(deps))
    .route('/', meFactorsRoutes(deps))
    .route('/', meIdentitiesRoutes(deps))
    .route('/', meApplicationsRoutes(deps))
    .route('/', oauthRoutes(deps))
    .route('/', jwksRoutes(deps))
    .route('/', healthRoutes())
    .route('/', readyRoutes(deps));
  if (deps.metricsEndpoint !== null) app.route('/', metricsRoutes(deps.metricsEndpoint));
  app
    .route(
      '/',
      openApiRoutes(() => app.routes),
    )
    .route('/', apiReferenceRoutes())
    .route('/', accountPagesRoutes({ actions: accountActions(deps), appUrl: deps.appUrl }))
    .route('/', openIdPagesRoutes(deps))
    .route('/', landingRoutes(deps.panelRoot !== null));
  app.onError(errorHandler(deps.logger));
  app.notFound(notFoundHandler(() => app.routes));
  return app;
}
