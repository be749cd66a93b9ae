import type { ActionToken } from '../action-tokens/action-token.ts';
import type { ActionTokenService } from '../action-tokens/action-token-service.ts';
import { auditRecord, userChanges, userTarget } from '../audit/audit-records.ts';
import { NO_REQUEST, type RequestContext } from '../audit/audit-event.ts';
import { InvalidActionTokenError } from '../shared/errors.ts';
import type { IdGenerator } from '../shared/id-generator.ts';
import type { User } from '../users/user.ts';
import type { UserRepository, UserWrite } from '../users/user.repository.ts';
import type { Clock } from '../shared/clock.ts';
import { applyUserPatch, changesEndSessions, changesVoidTokens, type UserChanges } from '../users/user.rules.ts';

export interface VerificationServiceDeps {
  users: UserRepository;
  actionTokens: ActionTokenService;
  clock: Clock;
  ids: IdGenerator;
}

/**
 * What a mailed link to an address proves: a `verification` token that the account's address is
 * its owner's, an `email_change` token that the new address is, which makes it the account's.
 * The token is used in the transaction of the change, so a refused change leaves it usable.
 */
export class VerificationService {
  constructor(private readonly deps: VerificationServiceDeps) {}

  /**
   * Uses the token and applies what it proves. InvalidActionTokenError for a wrong, used, voided
   * or expired token; EmailTakenError (nothing changed, the token still usable) when the new
   * address of an email change has become another account's since it was asked for.
   */
  async verify(token: unknown, request: RequestContext = NO_REQUEST): Promise<void> {
    const { users, actionTokens, clock } = this.deps;
    const digests = await actionTokens.digestsOf(token);
    const now = clock.now();
    const changed = await users.redeem(['verification', 'email_change'], digests, now, (current, used) =>
      this.write(used, current, now, request),
    );
    if (!changed) throw new InvalidActionTokenError();
  }

  private write(token: ActionToken, current: User, now: Date, request: RequestContext): UserWrite {
    // Both kinds are bound to the address they were mailed to; one without is not of this service.
    if (token.email === null) throw new InvalidActionTokenError();
    const changes: UserChanges =
      token.purpose === 'email_change'
        ? { email: token.email, emailVerified: now.toISOString() }
        : { emailVerified: true };
    // A verification mailed to an address the account has left proves nothing about its address
    // now (a change of email voids such tokens; this holds should one slip through).
    if (token.purpose === 'verification' && token.email !== current.email) throw new InvalidActionTokenError();
    const user = applyUserPatch(current, changes, now);
    const by = { actor: { type: 'user', id: current.id } as const, request };
    const action = token.purpose === 'email_change' ? 'user.email_changed' : 'user.email_verified';
    const audit = auditRecord(
      this.deps.ids.next(),
      now,
      by,
      action,
      userTarget(current.id),
      userChanges(current, user),
    );
    // As an administrator's change of email does: the sessions opened for the old address end,
    // and the links mailed to it no longer act.
    const voidTokens = changesVoidTokens(current, changes);
    return changesEndSessions(current, changes)
      ? { user, audit, voidTokens, endSessions: {} }
      : { user, audit, voidTokens };
  }
}
