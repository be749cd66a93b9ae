export { createHttpApp } from './app';
export type { HttpAppDeps } from './http-app-deps';
export type { Logger, LogFields } from './logger';
export { MAX_BODY_BYTES } from './middleware/body-guard';
export { REFRESH_COOKIE, REFRESH_COOKIE_PATH } from './session/refresh-cookie';
export { addressMatcher } from './network/ip-address';
