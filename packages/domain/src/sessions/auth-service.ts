import { auditRecord, initiatorOf } from '../audit/audit-records.ts';
import {
  NO_REQUEST,
  SYSTEM_ACTOR,
  type AuditAction,
  type AuditChanges,
  type AuditRecord,
  type AuditTarget,
  type Initiator,
  type RequestContext,
} from '../audit/audit-event.ts';
import type { AuditTrail } from '../audit/audit-trail.ts';
import type { Clock } from '../shared/clock.ts';
import type { IdGenerator } from '../shared/id-generator.ts';
import { ForbiddenError, InvalidTokenError, NotFoundError, RefreshTokenReusedError } from '../shared/errors.ts';
import type { TokenSigner } from '../tokens/token-signer.ts';
import type { ThrottlePolicy } from '../throttling/throttle.ts';
import { mayHoldSession, type AccountDirectory, type Principal, type PrincipalSource } from './principal.ts';
import type { Identity, SubjectKind } from '../shared/identity.ts';
import type { AdminRole } from '../admins/admin-roles.ts';
import { refreshTokenState, withinReuseGrace, type RefreshToken, type Session } from './session.ts';
import type { SessionRepository } from './session.repository.ts';
import { ACCESS_PURPOSE, type SessionGrant, type SessionGrants } from '../sign-in/session-grants.ts';

/** Who an access token speaks for, and an admin's role as the store has it at this request. */
export interface AuthenticatedRole {
  identity: Identity;
  /** The admin's role; null for a user. */
  role: AdminRole | null;
}

export interface AuthPolicy {
  accessTokenSeconds: number;
  refreshTokenSeconds: number;
  /** See withinReuseGrace; 0 treats every second presentation of a retired token as reuse. */
  refreshReuseGraceSeconds: number;
  throttle: ThrottlePolicy;
  /** `required`: a user whose address is not verified cannot log in (EMAIL_VERIFICATION). */
  emailVerification: EmailVerification;
}

export const EMAIL_VERIFICATION = ['required', 'optional'] as const;
export type EmailVerification = (typeof EMAIL_VERIFICATION)[number];

export interface AuthServiceDeps {
  principals: PrincipalSource;
  /** Every account of either kind, so logging out someone else's id is told from an unknown id. */
  accounts: AccountDirectory;
  sessions: SessionRepository;
  /** The grant every sign-in ends in; a refresh hands it out again. */
  grants: SessionGrants;
  audit: AuditTrail;
  signer: TokenSigner;
  clock: Clock;
  ids: IdGenerator;
  policy: AuthPolicy;
  /**
   * Whether an admin may still act through an impersonation session (see impersonatorCheck):
   * asked on each request such a session makes, so a demotion or IMPERSONATION switched off
   * stops it at its next request. Without it, no impersonation session is let through.
   */
  impersonatorAllowed?: (adminId: string) => Promise<boolean>;
}

/** How the audit trail types an account of each kind, as actor and as target. */
const ACCOUNT_TARGET: Record<SubjectKind, string> = { admin: 'admins', user: 'users' };

const accountTarget = (kind: SubjectKind, id: string): AuditTarget => ({ type: ACCOUNT_TARGET[kind], id });
/** One session opening or ending, as the audit trail shows it beside the account. */
const sessionChange = (before: string | null, after: string | null): AuditChanges => ({ session: { before, after } });

/** The token a route of each kind refuses, as the refusal names it. */
const OTHER_KIND_TOKEN: Record<SubjectKind, string> = { admin: 'A user token', user: 'An admin token' };

/** The most sessions a listing shows, the most recently used: a real account has a handful. */
export const MAX_LISTED_SESSIONS = 100;

/**
 * Refresh-token rotation with reuse detection, revocation, logout and access-token checks for one
 * kind of account (signing in is the sign-in steps'). Admins and users each get an instance over
 * their own PrincipalSource.
 */
export class AuthService {
  constructor(private readonly deps: AuthServiceDeps) {}

  private get kind(): SubjectKind {
    return this.deps.principals.kind;
  }

  private record(
    by: Initiator,
    action: AuditAction,
    target: AuditTarget | null,
    changes: AuditChanges | null = null,
  ): AuditRecord {
    return auditRecord(this.deps.ids.next(), this.deps.clock.now(), by, action, target, changes);
  }

  /**
   * Exchanges a current refresh token for new tokens. A retired one presented again ends the
   * session (reuse), unless within the grace window after its rotation (see withinReuseGrace).
   */
  async refresh(refreshToken: string, request: RequestContext = NO_REQUEST): Promise<SessionGrant> {
    const { sessions, clock } = this.deps;
    const now = clock.now();
    const { record, session } = await this.resolveRefreshToken(refreshToken);
    const state = refreshTokenState(record, session, now);
    if (state === 'retired') return this.presentedAgain(record, session, now, request);
    if (state !== 'current') throw new InvalidTokenError();
    const principal = await this.activePrincipal(session, now);
    const next = this.deps.grants.newRefreshToken(session.id, now);
    if (await sessions.rotate(record.id, next, now)) return this.deps.grants.grant(principal, session, next, now);
    // Another request exchanged this token first (a second tab), or the session ended meanwhile.
    const { record: after, session: sessionAfter } = await this.resolveRefreshToken(refreshToken);
    if (refreshTokenState(after, sessionAfter, now) === 'retired') {
      return this.presentedAgain(after, sessionAfter, now, request);
    }
    throw new InvalidTokenError();
  }

  /**
   * A retired token presented again: within the grace window, a grant carrying the session's
   * current refresh token (so both holders end up with the same one, and no new branch of the
   * family is made); otherwise reuse, which ends the session.
   */
  private async presentedAgain(
    record: RefreshToken,
    session: Session,
    now: Date,
    request: RequestContext,
  ): Promise<SessionGrant> {
    const { sessions, policy } = this.deps;
    const current =
      withinReuseGrace(record, now, policy.refreshReuseGraceSeconds) &&
      (await sessions.findCurrentToken(session.id, now));
    if (current) return this.deps.grants.grant(await this.activePrincipal(session, now), session, current, now);
    // The service ends the session; who presented the token is not known (it may be a thief).
    const target = accountTarget(session.kind, session.subjectId);
    const changes = sessionChange(session.id, null);
    await sessions.revokeSession(
      session.id,
      now,
      this.record({ actor: SYSTEM_ACTOR, request }, 'session.reuse_detected', target, changes),
    );
    throw new RefreshTokenReusedError();
  }

  /** The session's account, if it still exists, is active and is not banned; otherwise the session ends. */
  private async activePrincipal(session: Session, now: Date): Promise<Principal> {
    const principal = await this.deps.principals.findById(session.subjectId);
    if (principal && mayHoldSession(principal)) return principal;
    return this.refuseEnded(session, now);
  }

  /** Ends a session whose account is gone, inactive or banned, and refuses its token. */
  private async refuseEnded(session: Session, now: Date): Promise<never> {
    await this.deps.sessions.revokeSession(session.id, now);
    throw new InvalidTokenError();
  }

  /** Revokes one refresh token of the caller. Revoking it again is not an error. */
  async revoke(refreshToken: string, caller: Identity, request: RequestContext = NO_REQUEST): Promise<void> {
    const { record, session } = await this.resolveRefreshToken(refreshToken);
    if (session.subjectId !== caller.subjectId) {
      throw new ForbiddenError('This refresh token belongs to another account.');
    }
    const target = accountTarget(session.kind, session.subjectId);
    const audit = this.record(initiatorOf(caller, request), 'session.revoked', target, sessionChange(session.id, null));
    await this.deps.sessions.revokeToken(record.id, audit.time, audit);
  }

  /** Ends every session of the caller, access tokens included. Only the caller's own id is allowed. */
  async logout(caller: Identity, subjectId: string, request: RequestContext = NO_REQUEST): Promise<void> {
    if (subjectId !== caller.subjectId) {
      if (!(await this.deps.accounts.exists(subjectId))) throw new NotFoundError('account');
      throw new ForbiddenError('An account can only log itself out.');
    }
    const audit = this.record(initiatorOf(caller, request), 'session.logout', accountTarget(this.kind, subjectId));
    await this.deps.sessions.revokeSubjectSessions(this.kind, subjectId, audit.time, undefined, audit);
  }

  /** The account's live sessions, most recently used first; NotFoundError for an unknown account. */
  async sessionsOf(subjectId: string): Promise<Session[]> {
    await this.requireAccount(subjectId);
    return this.deps.sessions.listLive(this.kind, subjectId, this.deps.clock.now(), MAX_LISTED_SESSIONS);
  }

  /**
   * Ends one session of the account: its refresh tokens and its access tokens stop working at
   * once, as at logout. NotFoundError when the account has no such live session.
   */
  async endSession(subjectId: string, sessionId: string, by: Initiator): Promise<void> {
    await this.requireAccount(subjectId);
    const target = accountTarget(this.kind, subjectId);
    const audit = this.record(by, 'session.revoked', target, sessionChange(sessionId, null));
    if (!(await this.deps.sessions.revokeSubjectSession(this.kind, subjectId, sessionId, audit.time, audit))) {
      throw new NotFoundError('session');
    }
  }

  /** Ends every session of the account, as one `session.revoked` event; NotFoundError for an unknown account. */
  async endAllSessions(subjectId: string, by: Initiator): Promise<void> {
    await this.requireAccount(subjectId);
    const audit = this.record(by, 'session.revoked', accountTarget(this.kind, subjectId));
    await this.deps.sessions.revokeSubjectSessions(this.kind, subjectId, audit.time, undefined, audit);
  }

  private async requireAccount(subjectId: string): Promise<void> {
    if (!(await this.deps.principals.findById(subjectId))) throw new NotFoundError(this.kind);
  }

  /**
   * Checks an access token: signature, issuer, audience, expiry, that its session is still open
   * and its account still active and not banned. The last closes the one gap the transactional
   * change leaves: a login that read the account just before its deactivation (or ban) committed
   * opens its session after the change ended the others; that session dies at its first use. A
   * valid token of the other kind of account is refused as forbidden, not as invalid. The session
   * says whether an admin opened it by impersonation, so its end stops the token at its next
   * request as any other; such a session also ends once its admin may no longer impersonate.
   */
  async authenticate(accessToken: string): Promise<Identity> {
    return (await this.authenticateWithRole(accessToken)).identity;
  }

  /**
   * As authenticate, with the role of an admin's session's admin, read with the session (null for
   * a user's): the door of every admin operation needs both, in one read.
   */
  async authenticateWithRole(accessToken: string): Promise<AuthenticatedRole> {
    const { signer, sessions } = this.deps;
    const verified = await signer.verify(accessToken, [ACCESS_PURPOSE.admin, ACCESS_PURPOSE.user]);
    if (verified.purpose !== ACCESS_PURPOSE[this.kind]) {
      throw new ForbiddenError(`${OTHER_KIND_TOKEN[this.kind]} cannot be used here.`);
    }
    const { sub, sid } = verified.claims;
    if (typeof sub !== 'string' || typeof sid !== 'string') throw new InvalidTokenError();
    const now = this.deps.clock.now();
    const read = await sessions.findSessionWithAccount(sid, this.kind, now);
    const session = read?.session;
    if (!read || !session || session.revoked || session.subjectId !== sub) {
      throw new InvalidTokenError();
    }
    if (!read.accountActive) await this.refuseEnded(session, now);
    const identity: Identity = { kind: this.kind, subjectId: sub, sessionId: sid };
    const { impersonatorId } = session;
    if (impersonatorId === null) return { identity, role: read.role };
    if (!(await this.deps.impersonatorAllowed?.(impersonatorId))) await this.refuseEnded(session, now);
    return { identity: { ...identity, impersonatorId }, role: read.role };
  }

  private async resolveRefreshToken(refreshToken: string): Promise<{ record: RefreshToken; session: Session }> {
    const { claims } = await this.deps.signer.verify(refreshToken, ['refresh']);
    if (typeof claims.jti !== 'string') throw new InvalidTokenError();
    const record = await this.deps.sessions.findToken(claims.jti);
    const session = record && (await this.deps.sessions.findSession(record.sessionId));
    if (!record || !session || session.kind !== this.kind || session.subjectId !== claims.sub) {
      throw new InvalidTokenError();
    }
    return { record, session };
  }
}
