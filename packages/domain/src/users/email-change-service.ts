import { accountLink } from '../account-pages/account-link.ts';
import type { ActionTokenService } from '../action-tokens/action-token-service.ts';
import { auditRecord, userTarget } from '../audit/audit-records.ts';
import { NO_REQUEST, type RequestContext } from '../audit/audit-event.ts';
import { refuseWhileImpersonated } from '../impersonation/impersonation-rules.ts';
import type { AccountMail } from '../mail/account-mail.ts';
import type { Clock } from '../shared/clock.ts';
import { ValidationError } from '../shared/errors.ts';
import type { IdGenerator } from '../shared/id-generator.ts';
import type { Identity } from '../shared/identity.ts';
import type { SelfService } from './self-service.ts';
import { isValidEmail, normalizeEmail } from './user.rules.ts';

export interface EmailChangeRequest {
  email?: unknown;
  current_password?: unknown;
}

export interface EmailChangeServiceDeps {
  self: SelfService;
  actionTokens: ActionTokenService;
  accountMail: AccountMail;
  clock: Clock;
  ids: IdGenerator;
  /** The service's public base address, which the confirmation link points at (PUBLIC_URL). */
  publicUrl: string;
}

// The request is a plain object ({ "email", "current_password" }), so its members are pointed at directly.
const invalidEmail = (detail: string) => new ValidationError([{ source: { pointer: '/email' }, detail }]);

/**
 * A user's change of their own email: asked for with the current password, made only when the
 * new address confirms it (VerificationService). Whether that address is free is not said here,
 * where it would tell who has an account; a clash is refused at confirmation.
 */
export class EmailChangeService {
  constructor(private readonly deps: EmailChangeServiceDeps) {}

  /**
   * Mails a confirmation link to the new address and a notice to the current one, with the audit
   * event, in one transaction. A wrong current password is refused as PATCH /v1/users/me refuses it.
   */
  async request(identity: Identity, input: EmailChangeRequest, request: RequestContext = NO_REQUEST): Promise<void> {
    const { self, actionTokens, accountMail, clock, ids, publicUrl } = this.deps;
    refuseWhileImpersonated(identity, 'email');
    const email = typeof input.email === 'string' ? normalizeEmail(input.email) : '';
    if (!isValidEmail(email)) throw invalidEmail('email must be a valid email address');
    const user = await self.proveCurrentPassword(identity, input.current_password, '/current_password');
    if (email === user.email) throw invalidEmail('email is already the address of this account');
    // Under the send limits: a link to that address within the minute, or a spent hourly budget,
    // skips this request silently, token and notice included (the answer stays 202).
    const confirmation = await accountMail.admit('email_change', email);
    if (!confirmation) return;
    const values = { email: user.email, new_email: email };
    const notice = await accountMail.admit('email_change_notice', user.email);
    const notices = notice ? [await notice(values)] : [];
    const by = { actor: { type: 'user', id: user.id } as const, request };
    const audit = auditRecord(ids.next(), clock.now(), by, 'user.email_change_requested', userTarget(user.id), {
      email: { before: user.email, after: email },
    });
    await actionTokens.issue(
      'email_change',
      { userId: user.id, email },
      (token) => confirmation({ ...values, link: accountLink(publicUrl, 'email_change', token) }),
      audit,
      notices,
    );
  }
}
