import { accountLink } from '../account-pages/account-link.ts';
import type { ActionPurpose } from '../action-tokens/action-token.ts';
import type { ActionTokenService } from '../action-tokens/action-token-service.ts';
import { SYSTEM_ACTOR, type AuditAction, type Initiator, type RequestContext } from '../audit/audit-event.ts';
import { auditRecord, userTarget } from '../audit/audit-records.ts';
import type { AccountMail } from '../mail/account-mail.ts';
import { addSeconds, type Clock } from '../shared/clock.ts';
import { ValidationError } from '../shared/errors.ts';
import type { IdGenerator } from '../shared/id-generator.ts';
import type { Logger } from '../shared/logger.ts';
import { hasPassword } from '../users/password-match.ts';
import type { ExternalIdentityRepository } from '../identities/external-identity.repository.ts';
import type { User } from '../users/user.ts';
import type { UserRepository } from '../users/user.repository.ts';
import { isValidEmail, normalizeEmail } from '../users/user.rules.ts';
import {
  MAIL_REQUEST_LEASE_SECONDS,
  MAIL_REQUEST_MAX_ATTEMPTS,
  type ClaimedMailRequest,
  type MailRequestKind,
} from './mail-request.ts';
import type { MailRequestOutcome, MailRequestQueue, MailRequestSettlement } from './mail-request.repository.ts';
import { banInForce } from '../users/user-ban.ts';

/** A claimed request with what resolving it writes (nothing for one dropped). */
interface ResolvedRequest extends MailRequestSettlement {
  readonly claim: ClaimedMailRequest;
}

export interface MailRequestServiceDeps {
  requests: MailRequestQueue;
  users: UserRepository;
  /** A password-less user with an identity may recover: it is how the mailbox's owner proves it. */
  identities: ExternalIdentityRepository;
  actionTokens: ActionTokenService;
  accountMail: AccountMail;
  clock: Clock;
  ids: IdGenerator;
  logger: Logger;
  /** The service's public base address: the links' pages are under it (PUBLIC_URL). */
  publicUrl: string;
}

/**
 * Who qualifies at `now` for what each kind of request mails, and the audit event it records;
 * `signsIn` is whether the account is in use (a password, an identity at a provider, or a
 * sign-in once). A pending invitee (none of these yet) gets neither: only the invitation's own link lets them
 * in, and an admin can send it again. A user made through a provider may recover: the recovery
 * proves the mailbox is theirs (and unlinks identities that did not vouch for it). A banned user gets no recovery link while the ban lasts (the
 * ban voided those sent before): a new password would not let them in.
 */
const RESOLUTIONS = {
  recovery: {
    qualifies: (user: User, now: Date, signsIn: boolean) => user.active === 1 && !banInForce(user, now) && signsIn,
    action: 'user.recovery_requested',
  },
  verification: {
    qualifies: (user: User, _now: Date, _signsIn: boolean) =>
      user.emailVerified === null && hasPassword(user.passwordHash),
    action: 'user.verification_resent',
  },
} as const satisfies Record<
  MailRequestKind,
  { qualifies: (user: User, now: Date, signsIn: boolean) => boolean; action: AuditAction }
>;

/**
 * The enumeration-safe endpoints (POST /v1/recover, POST /v1/verify/resend): `request()` does the
 * same work for any address, known or not (one insert), and a worker resolves each request off
 * the request path with `resolveDue()`: recovery mails a recovery link to an active user with the
 * address; verification mails a verification link to an unverified user with it; anything else
 * leaves no trace but the request's removal.
 */
export class MailRequestService {
  private readonly listeners = new Set<() => void>();

  constructor(private readonly deps: MailRequestServiceDeps) {}

  /**
   * Records a request of `kind` about `email` (which must look like an address: ValidationError
   * otherwise, whoever owns it), then tells the listeners (the in-process worker) at once.
   */
  async request(kind: MailRequestKind, email: string, request: RequestContext): Promise<void> {
    const address = normalizeEmail(email);
    if (!isValidEmail(address)) {
      throw new ValidationError([{ source: { pointer: '/email' }, detail: 'email must be a valid email address' }]);
    }
    const { requests, clock, ids } = this.deps;
    await requests.record({ id: ids.next(), kind, email: address, created: clock.now(), request });
    for (const listener of this.listeners) listener();
  }

  /** Calls `listener` after each recorded request; answers what stops it. */
  onRecorded(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /**
   * Claims up to `limit` due requests, resolves each, and settles them together (one transaction);
   * answers how many were claimed. A request whose resolution fails stays claimed until its lease
   * ends, then is tried again, and is dropped (logged, without its address) after
   * MAIL_REQUEST_MAX_ATTEMPTS. When the round's settle fails, each is settled alone, so one
   * request whose outcome cannot be written holds back no other.
   */
  async resolveDue(limit: number): Promise<number> {
    const { requests, clock } = this.deps;
    const now = clock.now();
    const claimed = await requests.claim(now, addSeconds(now, MAIL_REQUEST_LEASE_SECONDS), limit);
    const resolved = await Promise.all(claimed.map((claim) => this.settlement(claim)));
    const settlements = resolved.filter((settlement) => settlement !== undefined);
    if (settlements.length === 0) return claimed.length;
    try {
      await requests.settle(settlements);
    } catch {
      await Promise.all(settlements.map((settlement) => this.settleAlone(settlement)));
    }
    return claimed.length;
  }

  /** What settles `claim`: its outcome, nothing once it is to be dropped; undefined when resolving failed. */
  private async settlement(claim: ClaimedMailRequest): Promise<ResolvedRequest | undefined> {
    try {
      if (claim.attempt <= MAIL_REQUEST_MAX_ATTEMPTS) return { claim, outcome: await this.resolve(claim) };
      this.deps.logger.warn('a mail request was dropped after failed attempts', { requestId: claim.id });
      return { claim };
    } catch (error) {
      this.failed(claim, error);
      return undefined;
    }
  }

  private async settleAlone(settlement: ResolvedRequest): Promise<void> {
    try {
      await this.deps.requests.settle([settlement]);
    } catch (error) {
      this.failed(settlement.claim, error);
    }
  }

  private failed(claim: ClaimedMailRequest, error: unknown): void {
    this.deps.logger.warn('a mail request could not be resolved; it is tried again', {
      requestId: claim.id,
      kind: claim.kind,
      error: (error as Error)?.message,
    });
  }

  /**
   * Whether the account is in use, not an invitee's waiting for its invitation: a password, an
   * identity at a provider, or a sign-in once (a provider's user whose provider was deleted).
   */
  private async signsIn(user: User): Promise<boolean> {
    if (hasPassword(user.passwordHash) || user.lastLogin !== null) return true;
    return (await this.deps.identities.listByUser(user.id)).length > 0;
  }

  /** What `claim` leads to: nothing for an address no qualifying user has. */
  private async resolve(claim: ClaimedMailRequest): Promise<MailRequestOutcome> {
    const { users, actionTokens, accountMail, clock, ids, publicUrl } = this.deps;
    const resolution = RESOLUTIONS[claim.kind];
    const user = await users.findByEmail(claim.email);
    if (!user || !resolution.qualifies(user, clock.now(), await this.signsIn(user))) return {};
    // Whoever asked is unknown: the service acts, and the event keeps the request it came from.
    const by: Initiator = { actor: SYSTEM_ACTOR, request: claim.request };
    const audit = auditRecord(ids.next(), clock.now(), by, resolution.action, userTarget(user.id));
    // A later attempt follows one that may have counted this very message before it died.
    const compose = await accountMail.admit(claim.kind, user.email, { retry: claim.attempt > 1 });
    if (!compose) return { audit };
    // Each kind of request mails a link of the token purpose of the same name.
    const purpose: ActionPurpose = claim.kind;
    const prepared = await actionTokens.prepare(purpose, { userId: user.id, email: user.email }, (token) =>
      compose({ email: user.email, link: accountLink(publicUrl, purpose, token) }),
    );
    return { ...prepared, audit };
  }
}
