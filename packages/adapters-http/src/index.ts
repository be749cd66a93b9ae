export { createHttpApp } from './app';
export type { HttpAppDeps } from './http-app-deps';
export { MAX_BODY_BYTES } from './middleware/body-guard';
export { REFRESH_COOKIE, REFRESH_COOKIE_PATH } from './session/refresh-cookie';
export { addressMatcher } from './network/ip-address';
export { corsOrigins } from './middleware/cors';
export { errorDocument } from './errors/json-api-errors';
export { ERROR_CATALOGUE, type ApiErrorCode, type ErrorRow } from './errors/error-catalogue';
export { LOGIN_OUTCOMES, type HttpMetrics, type LoginOutcome, type MetricsEndpoint } from './metrics/http-metrics';
