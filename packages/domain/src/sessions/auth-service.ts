import { auditRecord } from '../audit/audit-records.ts';
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
import { addSeconds, type Clock } from '../shared/clock.ts';
import type { IdGenerator } from '../shared/id-generator.ts';
import { isStorableText } from '../shared/json.ts';
import type { PasswordHasher } from '../shared/password-hasher.ts';
import {
  AccountInactiveError,
  EmailNotVerifiedError,
  ForbiddenError,
  InvalidCredentialsError,
  InvalidTokenError,
  NotFoundError,
  RefreshTokenReusedError,
} from '../shared/errors.ts';
import type { TokenPurpose, TokenSigner } from '../tokens/token-signer.ts';
import type { LoginAttemptRepository } from '../throttling/login-attempt.repository.ts';
import { AttemptGate } from '../throttling/attempt-gate.ts';
import { throttleKeys, type ThrottlePolicy } from '../throttling/throttle.ts';
import { normalizeEmail } from '../users/user.rules.ts';
import { hasPassword, passwordMatches } from '../users/password-match.ts';
import type { AccountDirectory, Principal, PrincipalSource } from './principal.ts';
import type { Identity, SubjectKind } from '../shared/identity.ts';
import { refreshTokenState, withinReuseGrace, type RefreshToken, type Session } from './session.ts';
import type { ActivityRepository } from '../stats/activity.repository.ts';
import type { SessionRepository } from './session.repository.ts';
import type { PasswordRehashRepository } from './password-rehash.repository.ts';

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
  attempts: LoginAttemptRepository;
  /** Where the overview counts end users' failed logins; their logins count as their sessions open. */
  activity: ActivityRepository;
  rehash: PasswordRehashRepository;
  audit: AuditTrail;
  hasher: PasswordHasher;
  signer: TokenSigner;
  clock: Clock;
  ids: IdGenerator;
  policy: AuthPolicy;
}

/** The tokens of a session, as login and refresh hand them out. */
export interface SessionGrant {
  principal: Principal;
  sessionId: string;
  /** When both tokens were signed: their `iat`. */
  issued: Date;
  accessToken: string;
  accessTokenExpires: Date;
  refreshToken: string;
  refreshTokenExpires: Date;
}

const ACCESS_PURPOSE: Record<SubjectKind, TokenPurpose> = { admin: 'admin_access', user: 'user_access' };
/** How the audit trail types an account of each kind, as actor and as target. */
const ACCOUNT_TARGET: Record<SubjectKind, string> = { admin: 'admins', user: 'users' };

const accountTarget = (kind: SubjectKind, id: string): AuditTarget => ({ type: ACCOUNT_TARGET[kind], id });
/** One session opening or ending, as the audit trail shows it beside the account. */
const sessionChange = (before: string | null, after: string | null): AuditChanges => ({ session: { before, after } });

/** The caller of a request made with an access token, as the audit trail records it. */
export function initiatorOf(identity: Identity, request: RequestContext): Initiator {
  return { actor: { type: identity.kind, id: identity.subjectId }, request };
}
/** The token a route of each kind refuses, as the refusal names it. */
const OTHER_KIND_TOKEN: Record<SubjectKind, string> = { admin: 'A user token', user: 'An admin token' };

/** The most sessions a listing shows, the most recently used: a real account has a handful. */
export const MAX_LISTED_SESSIONS = 100;

/**
 * Login, refresh-token rotation with reuse detection, revocation, logout and access-token checks
 * for one kind of account. Admins and users each get an instance over their own PrincipalSource.
 */
export class AuthService {
  private timingHash: Promise<string> | undefined;
  private readonly gate: AttemptGate;

  constructor(private readonly deps: AuthServiceDeps) {
    this.gate = new AttemptGate(deps);
  }

  private get kind(): SubjectKind {
    return this.deps.principals.kind;
  }

  /**
   * Checks the credentials and opens a session, remembering where the login came from. For admins
   * the audit trail records each login and each failed one; for users, the failure that starts the
   * throttling of their logins.
   */
  async login(
    email: string,
    password: string,
    clientAddress: string,
    request: RequestContext = { requestId: null, clientAddress, userAgent: null },
  ): Promise<SessionGrant> {
    const { principals, attempts, hasher, policy } = this.deps;
    const normalized = normalizeEmail(email);
    // No account has such an address (the rules refuse it), and PostgreSQL cannot even store it in
    // a throttle key: refuse it as any unknown email.
    if (!isStorableText(normalized)) throw new InvalidCredentialsError();
    const keys = throttleKeys(this.kind, normalized, clientAddress);
    const attempt = await this.gate.enter(
      [
        [keys.accountAndAddress, policy.throttle.perAccountAndAddress],
        [keys.address, policy.throttle.perAddress],
      ],
      'Too many failed login attempts; try again later.',
      [keys.account],
    );

    const principal = await principals.findByEmail(normalized);
    // Verify against a throwaway hash when the email is unknown or its account has no password,
    // so every refusal takes as long.
    const hash = principal && hasPassword(principal.passwordHash) ? principal.passwordHash : null;
    // A wrong password leaves the attempt recorded: that is the failure that counts.
    const matches = await passwordMatches(hasher, password, hash ?? (await this.hashForTiming()));
    if (!matches || !principal || hash === null) {
      if (this.kind === 'user') await this.deps.activity.countFailedLogin(this.deps.clock.now());
      await this.recordFailedLogin(principal, attempt.failureThrottles, request);
      throw new InvalidCredentialsError();
    }
    await this.gate.succeeded(attempt);
    if (!principal.active) throw new AccountInactiveError();
    // Only after the right password: to anyone else an unverified account looks like any other.
    if (!principal.emailVerified && policy.emailVerification === 'required') throw new EmailNotVerifiedError();
    await attempts.clear(keys.accountAndAddress);
    const grant = await this.startSession(principal, request);
    if (!grant) return this.refuseChanged(principal);
    // Only now, with the session standing: the store's check compares the hash it verified.
    await this.rehashIfDue(principal, password);
    return grant;
  }

  private async recordFailedLogin(
    principal: Principal | null,
    throttles: boolean,
    request: RequestContext,
  ): Promise<void> {
    const target = principal && accountTarget(this.kind, principal.id);
    if (this.kind === 'admin') {
      const actor = { type: 'admin', id: principal?.id ?? null } as const;
      await this.deps.audit.append(this.record({ actor, request }, 'admin.login_failed', target));
    } else if (throttles) {
      await this.deps.audit.append(this.record({ actor: SYSTEM_ACTOR, request }, 'user.login_throttled', target));
    }
  }

  private record(
    by: Initiator,
    action: AuditAction,
    target: AuditTarget | null,
    changes: AuditChanges | null = null,
  ): AuditRecord {
    return auditRecord(this.deps.ids.next(), this.deps.clock.now(), by, action, target, changes);
  }

  /** The answer to a login whose account changed before its session could open. */
  private async refuseChanged(verified: Principal): Promise<never> {
    const now = await this.deps.principals.findById(verified.id);
    const sameCredentials = now?.passwordHash === verified.passwordHash && now.email === verified.email;
    throw sameCredentials && !now.active ? new AccountInactiveError() : new InvalidCredentialsError();
  }

  /**
   * A hash brought in by an import (or made at another bcrypt cost) is replaced by one of the
   * configured kind, now that the password is known to be right; a concurrent password change wins.
   */
  private async rehashIfDue(principal: Principal, password: string): Promise<void> {
    const { hasher, rehash } = this.deps;
    if (!hasher.needsRehash(principal.passwordHash)) return;
    await rehash.replaceHash(this.kind, principal.id, principal.passwordHash, await hasher.hash(password));
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
    const next = this.newRefreshToken(session.id, now);
    if (await sessions.rotate(record.id, next, now)) return this.grant(principal, session.id, next, now);
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
    if (current) return this.grant(await this.activePrincipal(session, now), session.id, current, now);
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

  /** The session's account, if it still exists and is active; otherwise the session ends. */
  private async activePrincipal(session: Session, now: Date): Promise<Principal> {
    const principal = await this.deps.principals.findById(session.subjectId);
    if (principal?.active) return principal;
    return this.refuseEnded(session, now);
  }

  /** Ends a session whose account is gone or inactive, and refuses its token. */
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
   * and its account still active. The last closes the one gap the transactional change leaves: a
   * login that read the account just before its deactivation committed opens its session after
   * the deactivation ended the others; that session dies at its first use. A valid token of the
   * other kind of account is refused as forbidden, not as invalid.
   */
  async authenticate(accessToken: string): Promise<Identity> {
    const { signer, sessions } = this.deps;
    const verified = await signer.verify(accessToken, [ACCESS_PURPOSE.admin, ACCESS_PURPOSE.user]);
    if (verified.purpose !== ACCESS_PURPOSE[this.kind]) {
      throw new ForbiddenError(`${OTHER_KIND_TOKEN[this.kind]} cannot be used here.`);
    }
    const { sub, sid } = verified.claims;
    if (typeof sub !== 'string' || typeof sid !== 'string') throw new InvalidTokenError();
    const read = sessions.findSessionWithAccount ? await sessions.findSessionWithAccount(sid) : undefined;
    const session = read === undefined ? await sessions.findSession(sid) : (read?.session ?? null);
    if (!session || session.revoked || session.kind !== this.kind || session.subjectId !== sub) {
      throw new InvalidTokenError();
    }
    if (read === undefined) await this.activePrincipal(session, this.deps.clock.now());
    else if (!read?.accountActive) await this.refuseEnded(session, this.deps.clock.now());
    return { kind: this.kind, subjectId: sub, sessionId: sid };
  }

  /**
   * Opens a new session for an account that has just proven who it is; null if its password or
   * email changed, or it was deactivated or deleted, since it was read (the store checks that as it
   * opens the session, so a change committing meanwhile cannot leave it working).
   */
  private async startSession(principal: Principal, request: RequestContext): Promise<SessionGrant | null> {
    const now = this.deps.clock.now();
    const id = this.deps.ids.next();
    const first = this.newRefreshToken(id, now);
    const session: Session = {
      id,
      kind: this.kind,
      subjectId: principal.id,
      created: now,
      lastUsed: now,
      expires: first.expires,
      clientAddress: request.clientAddress,
      userAgent: request.userAgent,
      amr: ['pwd'],
      revoked: null,
    };
    const audit =
      this.kind === 'admin'
        ? this.record(
            { actor: { type: 'admin', id: principal.id }, request },
            'admin.login',
            accountTarget('admin', principal.id),
            sessionChange(null, session.id),
          )
        : undefined;
    if (!(await this.deps.sessions.create(session, first, principal, audit))) return null;
    return this.grant(principal, session.id, first, now);
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

  private newRefreshToken(sessionId: string, now: Date): RefreshToken {
    const expires = addSeconds(now, this.deps.policy.refreshTokenSeconds);
    return { id: this.deps.ids.next(), sessionId, issued: now, expires, retired: null, revoked: null };
  }

  private async grant(
    principal: Principal,
    sessionId: string,
    refresh: RefreshToken,
    now: Date,
  ): Promise<SessionGrant> {
    const { signer, policy } = this.deps;
    const accessTokenExpires = addSeconds(now, policy.accessTokenSeconds);
    const subject = { sub: principal.id, sid: sessionId };
    const [accessToken, refreshToken] = await Promise.all([
      signer.sign(
        ACCESS_PURPOSE[this.kind],
        { ...principal.claims, ...subject, jti: this.deps.ids.next() },
        now,
        accessTokenExpires,
      ),
      signer.sign('refresh', { ...subject, jti: refresh.id }, now, refresh.expires),
    ]);
    return {
      principal,
      sessionId,
      issued: now,
      accessToken,
      accessTokenExpires,
      refreshToken,
      refreshTokenExpires: refresh.expires,
    };
  }

  private hashForTiming(): Promise<string> {
    this.timingHash ??= this.deps.hasher.hash('timing-equaliser-password');
    return this.timingHash;
  }
}
