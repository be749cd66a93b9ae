import type { AuditRecord } from '../audit/audit-event.ts';
import type { NewMail } from '../mail/mail-message.ts';
import { token } from '../shared/token.ts';
import type { Admin } from './admin.ts';
import type { AdminInvitation, StoredAdminInvitation } from './admin-invitation.ts';

/**
 * Stores administrators' invitations (the `admin_invitations` table). Each change is one
 * transaction, its message and audit event included.
 */
export interface AdminInvitationRepository {
  /**
   * Stores the invitation with its message and event, and withdraws (uses at its `created`) any
   * pending invitation of the same address: the newest link is the one that works.
   * EmailTakenError, and nothing stored, when an admin has the address already.
   */
  create(invitation: StoredAdminInvitation, mail: NewMail, audit: AuditRecord): Promise<void>;
  /** The invitations pending at `now` (unused, unexpired), oldest first. */
  listPending(now: Date): Promise<AdminInvitation[]>;
  /**
   * Withdraws a pending invitation (`used` = `now`) and appends the event `audit` makes of it, in
   * one transaction; null, and nothing written, when it is not pending.
   */
  withdraw(id: string, now: Date, audit: (invitation: AdminInvitation) => AuditRecord): Promise<AdminInvitation | null>;
  /**
   * Accepts the invitation stored under one of `digests`, pending at `now`, in one transaction:
   * it is used at `now`, the admin that `join` makes of it is inserted, and the event appended.
   * Null, and nothing written, for a wrong, used, withdrawn or expired invitation; EmailTakenError,
   * and nothing written, when an admin has taken the address meanwhile. Of concurrent
   * acceptances of one invitation exactly one makes an admin.
   */
  accept(
    digests: readonly string[],
    now: Date,
    join: (invitation: AdminInvitation) => { admin: Admin; audit: AuditRecord },
  ): Promise<Admin | null>;
}
export const AdminInvitationRepository = token<AdminInvitationRepository>('AdminInvitationRepository');
