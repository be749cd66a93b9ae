import type { AuditRecord } from '../audit/audit-event.ts';
import { token } from '../shared/token.ts';
import type { IdentityProvider } from './identity-provider.ts';

/** A change to a stored provider, told whether any identity exists through it, and the event it answers. */
export type IdentityProviderChange = (
  current: IdentityProvider,
  hasIdentities: boolean,
) => { provider: IdentityProvider; audit: AuditRecord | null };

/** Stores identity providers (`identity_providers`). Each change is one transaction with its audit event. */
export interface IdentityProviderRepository {
  /** Stores it with its event; throws SlugTakenError when another provider has the slug. */
  create(provider: IdentityProvider, audit: AuditRecord): Promise<IdentityProvider>;
  get(id: string): Promise<IdentityProvider | null>;
  findBySlug(slug: string): Promise<IdentityProvider | null>;
  /** Every provider, oldest first (by created, then id). */
  list(): Promise<IdentityProvider[]>;
  /**
   * Applies `change` to the provider as stored, told whether any identity exists through it (no
   * identity can be linked meanwhile), in one transaction with the event it answers (none when
   * nothing changed). Null when there is no such provider.
   */
  update(id: string, change: IdentityProviderChange): Promise<IdentityProvider | null>;
  /**
   * Removes the provider, its users' identities through it and its pending attempts, with the
   * event. False when there was none.
   */
  delete(id: string, audit: AuditRecord): Promise<boolean>;
}
export const IdentityProviderRepository = token<IdentityProviderRepository>('IdentityProviderRepository');
