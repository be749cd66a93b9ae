import { auditRecord, initiatorOf, userTarget } from '../audit/audit-records.ts';
import { NO_REQUEST, type RequestContext } from '../audit/audit-event.ts';
import type { FactorService, StepUpProof } from '../factors/factor-service.ts';
import type { PrincipalSource } from '../sessions/principal.ts';
import type { Session } from '../sessions/session.ts';
import type { SessionGrants } from '../sign-in/session-grants.ts';
import type { Clock } from '../shared/clock.ts';
import {
  AccountBannedError,
  AccountInactiveError,
  ImpersonationDisabledError,
  NotFoundError,
  ValidationError,
} from '../shared/errors.ts';
import type { IdGenerator } from '../shared/id-generator.ts';
import type { Identity } from '../shared/identity.ts';
import { IMPERSONATION_RULES, impersonationReasonProblem } from './impersonation-rules.ts';

export interface ImpersonationServiceDeps {
  /** IMPERSONATION: off refuses every start. */
  enabled: boolean;
  /**
   * The end users: nobody else can be impersonated (an admin's id is as unknown as any other), nor
   * a banned or inactive one.
   */
  users: PrincipalSource;
  /** The users' session grants: an impersonation is a session of the user. */
  grants: SessionGrants;
  /** The second factor of the admin who starts one. */
  factors: FactorService;
  clock: Clock;
  ids: IdGenerator;
  /** ACCESS_TOKEN_TTL: an impersonation token lives no longer than a user's own. */
  accessTokenSeconds: number;
}

/** What an admin sends to act as a user: why, and their second factor when they have one. */
export interface ImpersonationRequest extends StepUpProof {
  readonly reason?: unknown;
}

/** A started impersonation: the user's session, its one access token, and why it was opened. */
export interface Impersonation {
  readonly session: Session;
  readonly accessToken: string;
  readonly reason: string;
}

/** The most times a start retries a user that changed while it was being read. */
const ATTEMPTS = 2;

/**
 * Support acting as an end user (IMPERSONATION=on): a real session of the user, which the user
 * sees among their own and which ends like any other, with one access token of at most 15
 * minutes that names the admin in its `act` claim and cannot be refreshed. Everything done with
 * it is recorded under the admin; the account's credentials stay out of its reach
 * (refuseWhileImpersonated).
 */
export class ImpersonationService {
  constructor(private readonly deps: ImpersonationServiceDeps) {}

  /** Refuses while IMPERSONATION is off: before anything else about a request is judged. */
  ensureEnabled(): void {
    if (!this.deps.enabled) throw new ImpersonationDisabledError();
  }

  /**
   * Starts acting as the user `userId` for `admin`, who has a role allowed to (checked by the
   * caller) and, with an active second factor, proves it along. Recorded as `user.impersonated`
   * with the reason, in the session's transaction.
   */
  async start(
    admin: Identity,
    userId: string,
    input: ImpersonationRequest,
    request: RequestContext = NO_REQUEST,
  ): Promise<Impersonation> {
    const { grants, factors, clock, ids, accessTokenSeconds } = this.deps;
    this.ensureEnabled();
    const problem = impersonationReasonProblem(input.reason);
    if (problem) throw new ValidationError([{ source: { pointer: '/reason' }, detail: problem }]);
    const reason = String(input.reason);
    // The user is looked up before the admin's code is used up on them.
    let user = await this.activeUser(userId);
    await factors.confirm(admin, input, request);
    const seconds = Math.min(accessTokenSeconds, IMPERSONATION_RULES.maxSeconds);
    const audit = (session: Session) =>
      auditRecord(ids.next(), clock.now(), initiatorOf(admin, request), 'user.impersonated', userTarget(userId), {
        session: { before: null, after: session.id },
        reason: { before: null, after: reason },
      });
    for (let attempt = 1; ; attempt += 1) {
      const opened = await grants.openImpersonation(user, admin.subjectId, seconds, request, audit);
      if (opened) return { ...opened, reason };
      // The user's password or email changed, or it was deactivated or banned, between the read
      // and the session's opening: read again, and refuse if it is no longer there to act as.
      if (attempt === ATTEMPTS) throw new AccountInactiveError();
      user = await this.activeUser(userId);
    }
  }

  private async activeUser(userId: string) {
    const user = await this.deps.users.findById(userId);
    if (!user) throw new NotFoundError('user');
    if (!user.active) throw new AccountInactiveError();
    if (user.banned) throw new AccountBannedError();
    return user;
  }
}
