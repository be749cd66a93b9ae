export { createHttpApp } from './app';
export type { HttpAppDeps } from './http-app-deps';
export type { Logger, LogFields } from './logger';
export { MAX_BODY_BYTES } from './middleware/body-guard';
export { REFRESH_COOKIE, REFRESH_COOKIE_PATH } from './session/refresh-cookie';
export { addressMatcher } from './network/ip-address';
export { errorDocument, type ApiErrorCode } from './errors/json-api-errors';
export { LOGIN_OUTCOMES, type HttpMetrics, type LoginOutcome, type MetricsEndpoint } from './metrics/http-metrics';
