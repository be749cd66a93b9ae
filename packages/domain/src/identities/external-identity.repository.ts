import type { AuditRecord } from '../audit/audit-event.ts';
import type { User } from '../users/user.ts';
import { token } from '../shared/token.ts';
import type { ExternalIdentity } from './external-identity.ts';

/** Stores users' external identities (`external_identities`, unique on provider and subject). */
export interface ExternalIdentityRepository {
  findBySubject(providerId: string, subject: string): Promise<ExternalIdentity | null>;
  /** A user's identities, oldest first (by created, then id). */
  listByUser(userId: string): Promise<ExternalIdentity[]>;
  /**
   * Links the identity to its user with the event, in one transaction; throws
   * IdentityAlreadyLinkedError when (provider, subject) is linked already (to anyone), and
   * answers null when the user no longer exists.
   */
  link(identity: ExternalIdentity, audit: AuditRecord): Promise<ExternalIdentity | null>;
  /**
   * Creates the user and links the identity, one transaction with the event (a sign-up); throws
   * EmailTakenError or IdentityAlreadyLinkedError when a concurrent sign-in won.
   */
  createUserWithIdentity(user: User, identity: ExternalIdentity, audit: AuditRecord): Promise<void>;
  /** Records a sign-in through it (email as the provider now gives it), with its event. */
  touch(id: string, email: string | null, emailVerified: boolean, at: Date, audit: AuditRecord): Promise<void>;
  /**
   * Removes the user's identity with the event, unless it is the user's last way in (no
   * password, no passkey, no other identity): then throws LastSignInMethodError. The check and
   * the removal are one transaction, so two unlinks at once cannot both pass. False when there
   * was none.
   */
  unlink(userId: string, id: string, audit: AuditRecord): Promise<boolean>;
}
export const ExternalIdentityRepository = token<ExternalIdentityRepository>('ExternalIdentityRepository');
