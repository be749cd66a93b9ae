import type { ActionTokenService } from '../action-tokens/action-token-service.ts';
import { NO_REQUEST, type Initiator, type RequestContext } from '../audit/audit-event.ts';
import { auditRecord, userChanges, userTarget } from '../audit/audit-records.ts';
import type { AccountMail } from '../mail/account-mail.ts';
import type { Clock } from '../shared/clock.ts';
import { InvalidActionTokenError, ValidationError } from '../shared/errors.ts';
import type { IdGenerator } from '../shared/id-generator.ts';
import type { PasswordHasher } from '../shared/password-hasher.ts';
import type { ExternalIdentityRepository } from '../identities/external-identity.repository.ts';
import type { IdentityProviderRepository } from '../identities/identity-provider.repository.ts';
import { identityChange } from '../identities/user-identities.ts';
import type { UserRepository } from '../users/user.repository.ts';
import { applyUserPatch, passwordProblem } from '../users/user.rules.ts';

export interface RecoveryServiceDeps {
  users: UserRepository;
  actionTokens: ActionTokenService;
  accountMail: AccountMail;
  hasher: PasswordHasher;
  clock: Clock;
  ids: IdGenerator;
  identities: ExternalIdentityRepository;
  providers: IdentityProviderRepository;
}

/** The one service a recovery link's form posts to (POST /v1/reset-password, the /account/reset-password page). */
export class RecoveryService {
  constructor(private readonly deps: RecoveryServiceDeps) {}

  /**
   * Sets a new password through a recovery token: the password is checked first (a bad one →
   * ValidationError, and the token stays usable), then, in one transaction with the token's use,
   * the password is set, every session of the user ends, the address counts as verified (the
   * link proved it), the user's other outstanding tokens are voided, a `password_changed` notice
   * is queued and the audit event appended. Every identity of the user whose provider did not
   * vouch for the address is unlinked in that transaction (`user.identity_unlinked`): the link
   * proved the mailbox is the user's, and whoever made the account through a provider with that
   * address unvouched keeps no way into it. A wrong, used, expired or other-purpose token →
   * InvalidActionTokenError, and nothing changes. `request` is what the audit event records of
   * the request it came through.
   */
  async reset(token: unknown, password: unknown, request: RequestContext = NO_REQUEST): Promise<void> {
    const { users, actionTokens, accountMail, hasher, clock, ids } = this.deps;
    const problem = typeof password === 'string' ? passwordProblem(password) : 'password must be a string';
    if (problem) throw new ValidationError([{ source: { pointer: '/password' }, detail: problem }]);
    const digests = await actionTokens.digestsOf(token);
    // Read without using it: the notice must be rendered (sealed) before the transaction.
    const found = await actionTokens.peek('recovery', digests);
    const owner = await users.findById(found.userId);
    if (!owner) throw new InvalidActionTokenError();
    const passwordHash = await hasher.hash(password as string);
    const notice = await accountMail.admit('password_changed', owner.email);
    const mail = notice ? await notice({ email: owner.email }) : undefined;
    const now = clock.now();
    // The link's holder proved to be the user: the event names the user as the actor.
    const by: Initiator = { actor: { type: 'user', id: owner.id }, request };
    const unlinkUnvouched = await this.unvouchedIdentities(owner.id, now, by);
    const changed = await users.redeem('recovery', digests, now, (current) => {
      const user = applyUserPatch(current, { passwordHash, emailVerified: true }, now);
      const changes = userChanges(current, user);
      return {
        user,
        endSessions: {},
        voidTokens: true,
        mail,
        unlinkUnvouched,
        audit: auditRecord(ids.next(), now, by, 'user.recovery_completed', userTarget(current.id), changes),
      };
    });
    if (!changed) throw new InvalidActionTokenError();
  }

  /** The user's identities whose provider did not vouch for the address, each with its unlink event. */
  private async unvouchedIdentities(userId: string, now: Date, by: Initiator) {
    const { identities, providers, ids } = this.deps;
    const unvouched = (await identities.listByUser(userId)).filter((identity) => !identity.emailVerified);
    return Promise.all(
      unvouched.map(async (identity) => {
        const slug = (await providers.get(identity.providerId))?.slug ?? identity.providerId;
        const changes = identityChange({ slug }, identity.subject, false);
        const audit = auditRecord(ids.next(), now, by, 'user.identity_unlinked', userTarget(userId), changes);
        return { identityId: identity.id, audit };
      }),
    );
  }
}
