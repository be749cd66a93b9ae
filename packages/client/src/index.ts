export type { components, operations, paths } from './api-types';
/** Every action the audit trail records, as the document enumerates them. */
export { auditEventResourceAttributesActionValues as AUDIT_ACTIONS } from './api-types';
export {
  type ApiClient,
  type ApiClientOptions,
  type AuditEventListDocument,
  type ConflictPolicy,
  createApiClient,
  type ErrorDocument,
  type ErrorObject,
  type JsonWebKeySet,
  type ImportReport,
  type ImportReportDocument,
  type RefreshTokenBody,
  type SessionDocument,
  type SessionListDocument,
  type UserAttributes,
  type UserCreate,
  type UserDocument,
  type UserListDocument,
  type UserResource,
  type UserWrite,
} from './api-client';
export { type AdminIdentity, AdminSession, type AdminSessionOptions } from './admin-session';
export {
  ApiError,
  type ApiErrorObject,
  isAbort,
  type MfaChallenge,
  type SecondStepAnswer,
  unwrap,
} from '@uas/app-client';
