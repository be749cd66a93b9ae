import type { Admin } from '../admins/admin.ts';
import {
  isPendingAdminInvitation,
  type AdminInvitation,
  type StoredAdminInvitation,
} from '../admins/admin-invitation.ts';
import type { AdminInvitationRepository } from '../admins/admin-invitation.repository.ts';
import type { AuditRecord } from '../audit/audit-event.ts';
import type { NewMail } from '../mail/mail-message.ts';
import { EmailTakenError } from '../shared/errors.ts';
import type { InMemoryAuditTrail } from './in-memory-audit-trail.ts';
import type { InMemoryMailQueue } from './in-memory-mail.ts';

/** What the invitations reach of the in-memory admin store: its rows, as one transaction sees them. */
type AdminRows = { readonly rows: Map<string, Admin> };

const withoutDigest = ({ digest: _digest, ...invitation }: StoredAdminInvitation): AdminInvitation =>
  structuredClone(invitation);

/** Administrators' invitations in memory: each change decides and writes without an `await` in between. */
export class InMemoryAdminInvitationRepository implements AdminInvitationRepository {
  private readonly rows = new Map<string, StoredAdminInvitation>();

  constructor(
    private readonly admins: AdminRows,
    private readonly mail: InMemoryMailQueue,
    private readonly audit: InMemoryAuditTrail,
  ) {}

  async create(invitation: StoredAdminInvitation, mail: NewMail, audit: AuditRecord): Promise<void> {
    if ([...this.admins.rows.values()].some((admin) => admin.email === invitation.email)) throw new EmailTakenError();
    for (const [id, row] of this.rows) {
      if (row.email === invitation.email && row.used === null) this.rows.set(id, { ...row, used: invitation.created });
    }
    this.rows.set(invitation.id, structuredClone(invitation));
    this.mail.insertNow(mail);
    this.audit.appendNow(audit);
  }

  async listPending(now: Date): Promise<AdminInvitation[]> {
    return [...this.rows.values()]
      .filter((row) => isPendingAdminInvitation(row, now))
      .sort((a, b) => a.created.getTime() - b.created.getTime() || (a.id < b.id ? -1 : 1))
      .map(withoutDigest);
  }

  async withdraw(
    id: string,
    now: Date,
    audit: (invitation: AdminInvitation) => AuditRecord,
  ): Promise<AdminInvitation | null> {
    const row = this.rows.get(id);
    if (!row || !isPendingAdminInvitation(row, now)) return null;
    const record = audit(withoutDigest(row));
    const used = { ...row, used: now };
    this.rows.set(id, used);
    this.audit.appendNow(record);
    return withoutDigest(used);
  }

  async accept(
    digests: readonly string[],
    now: Date,
    join: (invitation: AdminInvitation) => { admin: Admin; audit: AuditRecord },
  ): Promise<Admin | null> {
    const row = [...this.rows.values()].find(
      (candidate) => digests.includes(candidate.digest) && isPendingAdminInvitation(candidate, now),
    );
    if (!row) return null;
    const { admin, audit } = join(withoutDigest(row));
    if ([...this.admins.rows.values()].some((other) => other.email === admin.email)) throw new EmailTakenError();
    this.admins.rows.set(admin.id, structuredClone(admin));
    this.rows.set(row.id, { ...row, used: now });
    this.audit.appendNow(audit);
    return structuredClone(admin);
  }
}
