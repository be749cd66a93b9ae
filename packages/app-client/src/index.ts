export {
  type Account,
  AppClient,
  type AppClientOptions,
  type AppApi,
  type MfaChallenge,
  type SecondStepAnswer,
  type SessionDocument,
} from './app-client.ts';
export { ApiError, type ApiErrorObject, isAbort, parseRetryAfter, unwrap } from './api-error.ts';
export { BearerSession, type BearerSessionOptions, grantOf, type SessionGrant } from './bearer-session.ts';
export { memoryStore, type RefreshTokenStore, webStorageStore } from './refresh-token-store.ts';
export { REFRESH_RETRY_MS, refreshDelayMs } from './refresh-schedule.ts';
export type { components, paths } from './api-types.ts';
