import type { JsonObject } from '../shared/json.ts';

/**
 * One thing the OpenID engine keeps between requests (oidc-provider's models: `Session`,
 * `Interaction`, `Grant`, `AuthorizationCode`, `AccessToken`, `RefreshToken`, …), stored so that
 * every instance serves every request. The engine's payload is kept as it gave it; the columns
 * beside it are what the service looks records up by.
 */
export interface OpenIdRecord {
  /** The engine's model name. */
  readonly model: string;
  /** Unique per model. */
  readonly id: string;
  readonly payload: JsonObject;
  /** The grant it belongs to: revoking a grant removes every record naming it. */
  readonly grantId: string | null;
  /** A session's uid (the engine finds sessions by it). */
  readonly uid: string | null;
  /** The user it is about (`sub`), when it names one. */
  readonly accountId: string | null;
  readonly clientId: string | null;
  /** Past this, it is gone for the engine, and housekeeping removes it. Null: never expires. */
  readonly expires: Date | null;
  /** When a single-use record (a code, a rotated refresh token) was used; null while unused. */
  readonly consumed: Date | null;
}

/** What the engine stores: everything but `consumed`, which only `consume` sets. */
export type OpenIdRecordDraft = Omit<OpenIdRecord, 'consumed'>;
