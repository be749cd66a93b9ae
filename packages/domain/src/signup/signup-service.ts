import { accountLink } from '../account-pages/account-link.ts';
import type { ActionTokenService } from '../action-tokens/action-token-service.ts';
import { auditRecord, userChanges, userTarget } from '../audit/audit-records.ts';
import { NO_REQUEST, type RequestContext } from '../audit/audit-event.ts';
import type { MailQueue } from '../mail/mail-queue.ts';
import type { AccountMail } from '../mail/account-mail.ts';
import type { Clock } from '../shared/clock.ts';
import { EmailTakenError, ForbiddenError, SignupDisabledError, ValidationError } from '../shared/errors.ts';
import type { IdGenerator } from '../shared/id-generator.ts';
import type { JsonObject } from '../shared/json.ts';
import type { PasswordHasher } from '../shared/password-hasher.ts';
import type { UserRepository } from '../users/user.repository.ts';
import { newUserIssues, normalizeEmail } from '../users/user.rules.ts';
import { freshUser } from '../users/fresh-user.ts';

/** SIGNUP: `open`, anyone may sign up; `invite-only` and `closed`, only an administrator makes accounts. */
export const SIGNUP_MODES = ['open', 'invite-only', 'closed'] as const;
export type SignupMode = (typeof SIGNUP_MODES)[number];

/** Attributes of a new account that only an administrator sets. */
const ADMIN_ONLY = ['app', 'active', 'email_verified'] as const;

/** The admin-only attributes present in a sign-up, in a stable order. */
export function adminOnlySignupAttributes(attributes: object): string[] {
  return ADMIN_ONLY.filter((name) => name in attributes);
}

/** What a sign-up asks for; admin-only attributes arrive as sent, to be refused whole. */
export interface SignupRequest {
  email: string;
  password: string;
  name?: string;
  metadata?: JsonObject;
}

export interface SignupServiceDeps {
  users: UserRepository;
  actionTokens: ActionTokenService;
  /** Where each message is admitted under the send limits and composed. */
  accountMail: AccountMail;
  /** Where the message to an address that already has an account is queued. */
  queue: MailQueue;
  hasher: PasswordHasher;
  clock: Clock;
  ids: IdGenerator;
  /** The service's public base address, which the verification link points at (PUBLIC_URL). */
  publicUrl: string;
  mode: SignupMode;
}

/**
 * Sign-up by the public: an account with an unverified address and the message that verifies
 * it, or, for an address that already has an account, a notice to its owner. Both end the same
 * way for the caller, so a sign-up never tells whether an address is registered.
 */
export class SignupService {
  constructor(private readonly deps: SignupServiceDeps) {}

  async signUp(input: SignupRequest & Record<string, unknown>, request: RequestContext = NO_REQUEST): Promise<void> {
    const { users, actionTokens, accountMail, hasher, clock, ids, publicUrl, mode } = this.deps;
    if (mode !== 'open') throw new SignupDisabledError();
    const forbidden = adminOnlySignupAttributes(input);
    if (forbidden.length > 0) throw new ForbiddenError(`Only an administrator can set ${forbidden.join(', ')}.`);
    const issues = newUserIssues(input);
    if (issues.length > 0) throw new ValidationError(issues);
    const email = normalizeEmail(input.email);
    // Hashed on both paths, so both take as long: the hash is nearly all of a sign-up's time.
    const passwordHash = await hasher.hash(input.password);
    if (await users.findByEmail(email)) return this.tellOwner(email);
    // Admitted once per address a minute (AccountMail): of concurrent sign-ups of one new address
    // only the admitted one goes on to make the account, with its link, so the link is never
    // spent on a racer that then loses. A skipped one (the budget spent, too) makes nothing.
    const compose = await accountMail.admit('verification', email);
    if (!compose) return;
    const now = clock.now();
    const user = freshUser(
      {
        id: ids.next(),
        name: input.name ?? '',
        email,
        passwordHash,
        metadata: input.metadata ?? {},
        emailVerified: null,
      },
      now,
    );
    const verification = await actionTokens.prepare('verification', { userId: user.id, email }, (token) =>
      compose({ email, link: accountLink(publicUrl, 'verification', token) }),
    );
    const by = { actor: { type: 'user', id: user.id } as const, request };
    const audit = auditRecord(ids.next(), now, by, 'user.signed_up', userTarget(user.id), userChanges(null, user));
    try {
      // The store's unique email decides, should an administrator make the account meanwhile.
      await users.insert(user, audit, verification);
    } catch (error) {
      if (!(error instanceof EmailTakenError)) throw error;
      await this.tellOwner(email);
    }
  }

  /** Tells the owner of a registered address that someone tried to sign up with it. */
  private async tellOwner(email: string): Promise<void> {
    const compose = await this.deps.accountMail.admit('signup_existing', email);
    if (compose) await this.deps.queue.enqueue(await compose({ email }));
  }
}
