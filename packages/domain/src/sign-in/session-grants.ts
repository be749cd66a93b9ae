import { auditRecord } from '../audit/audit-records.ts';
import type { AuditRecord, RequestContext } from '../audit/audit-event.ts';
import type { AuthMethod } from '../factors/factor.ts';
import type { Principal } from '../sessions/principal.ts';
import type { SessionRepository } from '../sessions/session.repository.ts';
import type { RefreshToken, Session } from '../sessions/session.ts';
import { addSeconds, type Clock } from '../shared/clock.ts';
import type { IdGenerator } from '../shared/id-generator.ts';
import type { SubjectKind } from '../shared/identity.ts';
import type { JsonObject } from '../shared/json.ts';
import type { TokenPurpose, TokenSigner } from '../tokens/token-signer.ts';

export interface SessionGrantsDeps {
  kind: SubjectKind;
  sessions: SessionRepository;
  signer: TokenSigner;
  clock: Clock;
  ids: IdGenerator;
  policy: { accessTokenSeconds: number; refreshTokenSeconds: number };
}

/** The tokens of a session, as every sign-in and every refresh hand them out. */
export interface SessionGrant {
  principal: Principal;
  sessionId: string;
  /** How the account proved itself when the session opened: what an OpenID sign-in reports as its `amr`. */
  amr: readonly AuthMethod[];
  /** When both tokens were signed: their `iat`. */
  issued: Date;
  accessToken: string;
  accessTokenExpires: Date;
  refreshToken: string;
  refreshTokenExpires: Date;
}

/** A session opened by impersonation and its one access token, which expires with it. */
export interface ImpersonationGrant {
  session: Session;
  accessToken: string;
}

/** The assurance level (NIST SP 800-63B) an access token states beside its `amr`. */
export type AssuranceLevel = 'aal1' | 'aal2';

/**
 * `aal2` when two factors signed in (`mfa`), or a passkey did: a passkey sign-in is only accepted
 * with user verification (a PIN or biometric on the device), which makes it two factors in one.
 */
export function assuranceOf(amr: readonly AuthMethod[]): AssuranceLevel {
  return amr.some((method) => method === 'mfa' || method === 'hwk' || method === 'swk') ? 'aal2' : 'aal1';
}

export const ACCESS_PURPOSE: Record<SubjectKind, TokenPurpose> = { admin: 'admin_access', user: 'user_access' };

/**
 * The one session grant every way of signing in ends in (a password alone, a password and a
 * second factor, a passkey alone), and that refresh hands out again: it opens the session with
 * how its account proved itself (`amr`), and signs tokens that carry it.
 */
export class SessionGrants {
  constructor(private readonly deps: SessionGrantsDeps) {}

  /**
   * Opens a new session for an account that has just proven who it is (by `amr`); null if its
   * password or email changed, or it was deactivated or deleted, since it was read (the store
   * checks that as it opens the session, so a change committing meanwhile cannot leave it
   * working). An admin's session opening is audited in the same transaction.
   */
  async open(principal: Principal, amr: readonly AuthMethod[], request: RequestContext): Promise<SessionGrant | null> {
    const { kind, clock, ids, sessions } = this.deps;
    const now = clock.now();
    const id = ids.next();
    const first = this.newRefreshToken(id, now);
    const session: Session = {
      id,
      kind,
      subjectId: principal.id,
      created: now,
      lastUsed: now,
      expires: first.expires,
      clientAddress: request.clientAddress,
      userAgent: request.userAgent,
      amr,
      revoked: null,
      impersonatorId: null,
    };
    const audit =
      kind === 'admin'
        ? auditRecord(
            ids.next(),
            now,
            { actor: { type: 'admin', id: principal.id }, request },
            'admin.login',
            { type: 'admins', id: principal.id },
            { session: { before: null, after: session.id } },
          )
        : undefined;
    if (!(await sessions.create(session, first, principal, audit))) return null;
    return this.grant(principal, session, first, now);
  }

  /** A refresh token of the session, not yet stored, valid for the policy's lifetime from `now` unless told. */
  newRefreshToken(
    sessionId: string,
    now: Date,
    expires = addSeconds(now, this.deps.policy.refreshTokenSeconds),
  ): RefreshToken {
    return { id: this.deps.ids.next(), sessionId, issued: now, expires, retired: null, revoked: null };
  }

  /**
   * Opens a session of `principal` for the admin `impersonatorId`, lasting `seconds`, and signs its
   * one access token, which says so in an `act` claim (RFC 8693). No refresh token is handed out:
   * the session's family holds one row that is never signed, which carries its expiry as every
   * session's tokens do (housekeeping forgets a session with none). The store checks the account
   * as for any session; `audit` is written in the same transaction. Null as open() answers it.
   */
  async openImpersonation(
    principal: Principal,
    impersonatorId: string,
    seconds: number,
    request: RequestContext,
    audit: (session: Session) => AuditRecord,
  ): Promise<ImpersonationGrant | null> {
    const { kind, clock, ids, sessions } = this.deps;
    const now = clock.now();
    const expires = addSeconds(now, seconds);
    const session: Session = {
      id: ids.next(),
      kind,
      subjectId: principal.id,
      created: now,
      lastUsed: now,
      expires,
      clientAddress: request.clientAddress,
      userAgent: request.userAgent,
      // The account proved nothing: an admin stands in for it.
      amr: [],
      revoked: null,
      impersonatorId,
    };
    const family = this.newRefreshToken(session.id, now, expires);
    if (!(await sessions.create(session, family, principal, audit(session)))) return null;
    const accessToken = await this.signAccess(principal, session, now, expires, { act: { sub: impersonatorId } });
    return { session, accessToken };
  }

  /** Signs the access token (with the session's `amr` and `aal`) and the refresh token `refresh`. */
  async grant(
    principal: Principal,
    session: Pick<Session, 'id' | 'amr'>,
    refresh: RefreshToken,
    now: Date,
  ): Promise<SessionGrant> {
    const accessTokenExpires = addSeconds(now, this.deps.policy.accessTokenSeconds);
    const [accessToken, refreshToken] = await Promise.all([
      this.signAccess(principal, session, now, accessTokenExpires),
      this.deps.signer.sign('refresh', { sub: principal.id, sid: session.id, jti: refresh.id }, now, refresh.expires),
    ]);
    return {
      principal,
      sessionId: session.id,
      amr: session.amr,
      issued: now,
      accessToken,
      accessTokenExpires,
      refreshToken,
      refreshTokenExpires: refresh.expires,
    };
  }

  /** An access token of the session: the account's claims, `sub`, `sid`, `amr`, `aal`, and `extra`. */
  private signAccess(
    principal: Principal,
    session: Pick<Session, 'id' | 'amr'>,
    now: Date,
    expires: Date,
    extra: JsonObject = {},
  ): Promise<string> {
    const { signer, kind, ids } = this.deps;
    const claims = {
      ...principal.claims,
      sub: principal.id,
      sid: session.id,
      amr: [...session.amr],
      aal: assuranceOf(session.amr),
      ...extra,
      jti: ids.next(),
    };
    return signer.sign(ACCESS_PURPOSE[kind], claims, now, expires);
  }
}
