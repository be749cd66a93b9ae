import type { Context, MiddlewareHandler } from 'hono';
import { matchedRoutes } from 'hono/route';
import type { AppEnv } from '../app-env';
import type { ApiErrorCode } from '../errors/error-catalogue';
import type { HttpMetrics, LoginOutcome } from '../metrics/http-metrics';

/** The label of requests no route matched (404s, refused methods): one series, not one per path. */
const UNMATCHED_ROUTE = 'unmatched';

const LOGIN_ROUTES = new Set(['/v1/login', '/v1/admin/login']);
const LOGIN_OUTCOME_BY_CODE: Partial<Record<ApiErrorCode, LoginOutcome>> = {
  invalid_credentials: 'wrong_password',
  too_many_attempts: 'throttled',
  account_inactive: 'inactive',
  email_not_verified: 'unverified',
};

/** The template of the route that answered (`/v1/admin/users/:id`), skipping middleware. */
function routeTemplate(c: Context<AppEnv>): string {
  const route = matchedRoutes(c).findLast((candidate) => candidate.method !== 'ALL');
  return route?.path ?? UNMATCHED_ROUTE;
}

/** Counts and times every request by route and status, and logins and reuse detections by outcome. */
export function requestMetrics(metrics: HttpMetrics): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const started = performance.now();
    await next();
    const route = routeTemplate(c);
    const { status } = c.res;
    const errorCode = c.get('errorCode');
    metrics.requestFinished({ method: c.req.method, route, status, seconds: (performance.now() - started) / 1000 });
    if (errorCode === 'refresh_token_reused') metrics.refreshTokenReused();
    if (LOGIN_ROUTES.has(route) && c.req.method === 'POST') {
      const outcome = status === 200 ? 'success' : errorCode && LOGIN_OUTCOME_BY_CODE[errorCode];
      if (outcome) metrics.loginFinished(outcome);
    }
  };
}
