import createClient, { type Client } from 'openapi-fetch';
import type { components, operations, paths } from './api-types';

/** A client of the whole API, every path, parameter and body typed from the OpenAPI document. */
export type ApiClient = Client<paths>;

type Schemas = components['schemas'];
export type UserResource = Schemas['UserResource'];
export type UserAttributes = UserResource['attributes'];
export type UserDocument = Schemas['UserDocument'];
export type UserListDocument = Schemas['UserListDocument'];
export type SessionDocument = Schemas['SessionDocument'];
/** A user's live sessions, as the user's own listing and an admin's listing of them show them. */
export type SessionListDocument = operations['listOwnSessions']['responses'][200]['content']['application/json'];
export type ErrorObject = Schemas['ErrorObject'];
export type AuditEventListDocument = Schemas['AuditEventListDocument'];
export type ErrorDocument = Schemas['ErrorDocument'];
export type RefreshTokenBody = Schemas['RefreshTokenBody'];
export type JsonWebKeySet = operations['jwks']['responses'][200]['content']['application/json'];
/** What an admin may send when creating or changing a user. */
export type UserWrite = Schemas['UpdateUserDocument']['data']['attributes'];
export type UserCreate = Schemas['CreateUserDocument']['data']['attributes'];
export type ImportReportDocument = operations['importUsers']['responses'][200]['content']['application/json'];
export type ImportReport = ImportReportDocument['data']['attributes'];
export type ConflictPolicy = NonNullable<NonNullable<operations['importUsers']['parameters']['query']>['on_conflict']>;

export interface ApiClientOptions {
  /** The service's origin; '' (the default) for same-origin calls from a page it serves. */
  baseUrl?: string;
  fetch?: (request: Request) => Promise<Response>;
}

export const createApiClient = ({ baseUrl = '', fetch }: ApiClientOptions = {}): ApiClient =>
  createClient<paths>({ baseUrl, ...(fetch ? { fetch } : {}) });
