import type { AuditRecord } from '../audit/audit-event.ts';
import { token } from '../shared/token.ts';
import type { OAuthClient } from './oauth-client.ts';

/** A change to a stored client and the event it answers (null when nothing changed). */
export type OAuthClientChange = (current: OAuthClient) => { client: OAuthClient; audit: AuditRecord | null };

/** Stores OAuth clients (`oauth_clients`). Each change is one transaction with its audit event. */
export interface OAuthClientRepository {
  create(client: OAuthClient, audit: AuditRecord): Promise<OAuthClient>;
  get(id: string): Promise<OAuthClient | null>;
  /** Every client, oldest first (by created, then id). */
  list(): Promise<OAuthClient[]>;
  /** Applies `change` to the client as stored, with its event, in one transaction. Null when there is none. */
  update(id: string, change: OAuthClientChange): Promise<OAuthClient | null>;
  /**
   * Removes the client and everything the OpenID engine stored for it (grants, codes, tokens:
   * they stop working at once), with the event. False when there was none.
   */
  delete(id: string, audit: AuditRecord): Promise<boolean>;
}
export const OAuthClientRepository = token<OAuthClientRepository>('OAuthClientRepository');
