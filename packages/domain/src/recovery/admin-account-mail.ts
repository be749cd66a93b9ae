import { accountLink } from '../account-pages/account-link.ts';
import type { ActionTokenService } from '../action-tokens/action-token-service.ts';
import type { AuditAction, AuditRecord, Initiator } from '../audit/audit-event.ts';
import { auditRecord, userTarget } from '../audit/audit-records.ts';
import type { AuditTrail } from '../audit/audit-trail.ts';
import type { AccountMail } from '../mail/account-mail.ts';
import type { Clock } from '../shared/clock.ts';
import { EmailAlreadyVerifiedError, NotFoundError } from '../shared/errors.ts';
import type { IdGenerator } from '../shared/id-generator.ts';
import type { User } from '../users/user.ts';
import type { UserRepository } from '../users/user.repository.ts';

export interface AdminAccountMailDeps {
  users: UserRepository;
  actionTokens: ActionTokenService;
  accountMail: AccountMail;
  audit: AuditTrail;
  clock: Clock;
  ids: IdGenerator;
  /** The service's public base address: the links' pages are under it (PUBLIC_URL). */
  publicUrl: string;
}

/** How an admin has a recovery link reach a user: mailed, or handed to the admin (support on the phone). */
export type RecoveryDelivery = 'mail' | 'link';

/**
 * What an admin does for a user who cannot get in: send a recovery link (or receive it to pass
 * on), send the verification link again. Each is audited, never with the token or the link.
 * Messages go through AccountMail, so its limits hold here too: a second message of a kind to the
 * same address within a minute is skipped (the event is still recorded).
 */
export class AdminAccountMail {
  constructor(private readonly deps: AdminAccountMailDeps) {}

  /**
   * Issues a recovery token for the user and mails it (`mail`, answering null) or answers the
   * link (`link`) without mailing anything. NotFoundError when there is no such user.
   */
  async sendRecovery(userId: string, delivery: RecoveryDelivery, by: Initiator): Promise<string | null> {
    const { actionTokens, publicUrl } = this.deps;
    const user = await this.user(userId);
    const audit = this.event(by, 'user.recovery_sent', user);
    const owner = { userId: user.id, email: user.email };
    if (delivery === 'link') {
      return accountLink(publicUrl, 'recovery', await actionTokens.issueBare('recovery', owner, audit));
    }
    await this.mail('recovery', user, audit);
    return null;
  }

  /**
   * Mails the verification link again to a user whose address is not verified;
   * EmailAlreadyVerifiedError when it is, NotFoundError when there is no such user.
   */
  async resendVerification(userId: string, by: Initiator): Promise<void> {
    const user = await this.user(userId);
    if (user.emailVerified !== null) throw new EmailAlreadyVerifiedError();
    await this.mail('verification', user, this.event(by, 'user.verification_resent', user));
  }

  private async mail(purpose: 'recovery' | 'verification', user: User, audit: AuditRecord) {
    const { actionTokens, accountMail, audit: trail, publicUrl } = this.deps;
    const compose = await accountMail.admit(purpose, user.email);
    if (!compose) {
      await trail.append(audit);
      return;
    }
    await actionTokens.issue(
      purpose,
      { userId: user.id, email: user.email },
      (token) => compose({ email: user.email, link: accountLink(publicUrl, purpose, token) }),
      audit,
    );
  }

  private async user(id: string): Promise<User> {
    const user = await this.deps.users.findById(id);
    if (!user) throw new NotFoundError('user');
    return user;
  }

  private event(by: Initiator, action: AuditAction, user: User) {
    return auditRecord(this.deps.ids.next(), this.deps.clock.now(), by, action, userTarget(user.id));
  }
}
