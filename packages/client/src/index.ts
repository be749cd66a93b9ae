export type { components, operations, paths } from './api-types';
export {
  type ApiClient,
  type ApiClientOptions,
  type ConflictPolicy,
  createApiClient,
  type ErrorObject,
  type ImportReport,
  type SessionDocument,
  type UserAttributes,
  type UserCreate,
  type UserListDocument,
  type UserResource,
  type UserWrite,
} from './api-client';
export { type AdminIdentity, AdminSession, type AdminSessionOptions } from './admin-session';
export { ApiError, type ApiErrorObject, isAbort, parseRetryAfter, unwrap } from './api-error';
export { REFRESH_RETRY_MS, refreshDelayMs } from './refresh-schedule';
