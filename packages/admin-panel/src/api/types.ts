/** Wire shapes of the admin API, as the contract describes them. */

export type JsonObject = { [key: string]: unknown };

export interface UserAttributes {
  name: string;
  email: string;
  metadata: JsonObject;
  app: JsonObject;
  active: number;
  created: string;
  updated: string;
}

export interface UserResource {
  type: 'users';
  id: string;
  attributes: UserAttributes;
}

/** Attributes an admin may send on create or update. */
export interface UserWrite {
  name?: string;
  email?: string;
  password?: string;
  active?: 0 | 1;
  metadata?: JsonObject;
  app?: JsonObject;
}

interface PageLinks {
  first: string | null;
  last: string | null;
  prev: string | null;
  next: string | null;
}

export interface UserPage {
  data: UserResource[];
  links: PageLinks;
  meta: { total: number };
}

export interface SessionRecord {
  data: {
    type: 'users';
    id: string;
    attributes: {
      name: string;
      email: string;
      created: string;
      access_token: string;
      /** Unix time in seconds. */
      access_token_expiry: number;
      refresh_token: string;
    };
  };
}

export interface ApiErrorObject {
  status?: string;
  code?: string;
  title?: string;
  detail?: string;
  source?: { pointer?: string; parameter?: string };
}

export type ConflictPolicy = 'skip' | 'update' | 'fail';

/** The report `POST /v1/admin/users/import` answers. */
export interface ImportReport {
  dry_run: boolean;
  created: number;
  updated: number;
  skipped: number;
  rejected: number;
  rejections: { line: number; reason: string }[];
  failure: { line: number; reason: string } | null;
}
