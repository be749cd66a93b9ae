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
  /** Read only: the last successful login, or null. */
  last_login: string | null;
  /** Read only: failed logins within the throttling window, from any address. */
  recent_failed_logins: number;
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

/** One live session of a user, as `GET /v1/admin/users/{id}/sessions` lists it. */
export interface LoginSessionResource {
  type: 'sessions';
  id: string;
  attributes: {
    created: string;
    last_used: string;
    expires: string;
    client_address: string | null;
    user_agent: string | null;
  };
}

type ActorType = 'admin' | 'user' | 'system';

/** One audit event, as `GET /v1/admin/audit-events` lists them (newest first). */
export interface AuditEventResource {
  type: 'audit-events';
  id: string;
  attributes: {
    time: string;
    actor: { type: ActorType; id: string | null };
    action: string;
    target: { type: string; id: string } | null;
    changes: { [attribute: string]: { before: unknown; after: unknown } } | null;
    request_id: string | null;
    client_address: string | null;
    user_agent: string | null;
    hash: string;
    previous_hash: string | null;
  };
}

export interface AuditEventPage {
  data: AuditEventResource[];
  links: PageLinks;
  meta: { total: number };
}

interface DayActivity {
  day: string;
  signups: number;
  logins: number;
  failed_logins: number;
}

/** `GET /v1/admin/stats`: user totals and the last 30 days, oldest first. */
export interface Overview {
  users: { total: number; active: number; deactivated: number };
  days: DayActivity[];
}
