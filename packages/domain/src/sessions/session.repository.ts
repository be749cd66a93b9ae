import type { AdminRole } from '../admins/admin-roles.ts';
import type { AuditRecord } from '../audit/audit-event.ts';
import { token } from '../shared/token.ts';
import type { SubjectKind } from '../shared/identity.ts';
import type { RefreshToken, Session } from './session.ts';

/** What a login verified of the account: the session opens only if the account still has it. */
export interface VerifiedAccount {
  readonly email: string;
  readonly passwordHash: string;
}

/** A session, and whether its account (of the session's kind) still exists, is active and is not banned. */
export interface SessionWithAccount {
  readonly session: Session;
  readonly accountActive: boolean;
  /**
   * An admin session's admin's role, read with the session (null for a user's session or an admin
   * gone): every admin request needs both, so one read serves it.
   */
  readonly role: AdminRole | null;
}

/**
 * Stores sessions and their refresh-token families. "Not found" is `null`. A write given an audit
 * record appends it in its own transaction, and only when it changes something: a revocation of
 * what was revoked already records nothing.
 */
export interface SessionRepository {
  /**
   * Stores a session and its first token, in one transaction with a read of the account (of the
   * session's kind and subject) that must still be active, not banned at the session's creation
   * (see banInForce), and carry `verified`'s email and password hash; otherwise stores nothing and
   * answers false. The account is held meanwhile, so a change to
   * it either commits first (and this sees it) or waits and then ends this session with the others.
   * For a user, the same transaction sets the user's last login to the session's creation and
   * counts the login in the day's activity (see ActivityRepository).
   */
  create(session: Session, firstToken: RefreshToken, verified: VerifiedAccount, audit?: AuditRecord): Promise<boolean>;
  findSession(id: string): Promise<Session | null>;
  /**
   * The session if it is of `kind`, whether its account is active and not banned at `now`, and an
   * admin's role, read together (one snapshot): the check every access token gets, in one read.
   * Null for a session of the other kind, as for none.
   */
  findSessionWithAccount(id: string, kind: SubjectKind, now: Date): Promise<SessionWithAccount | null>;
  findToken(id: string): Promise<RefreshToken | null>;
  /**
   * The session's refresh token that may be exchanged now (neither retired, revoked nor expired),
   * the latest issued if there were several; null when there is none or the session has ended.
   */
  findCurrentToken(sessionId: string, now: Date): Promise<RefreshToken | null>;
  /**
   * Atomically retires `currentId` and stores `next`, but only if `currentId` was neither retired
   * nor revoked and its session has not ended: of two concurrent rotations of one token exactly
   * one returns true, and a rotation never lands after the session's end. The session's last use
   * becomes `at` and its expiry `next`'s.
   */
  rotate(currentId: string, next: RefreshToken, at: Date): Promise<boolean>;
  /** Marks one refresh token revoked; a token already revoked keeps its first revocation time. */
  revokeToken(id: string, at: Date, audit?: AuditRecord): Promise<void>;
  /** Ends one session and with it every token of its family. */
  revokeSession(id: string, at: Date, audit?: AuditRecord): Promise<void>;
  /**
   * A subject's live sessions at `now` (neither ended nor expired), most recently used first, at
   * most `limit` of them.
   */
  listLive(kind: SubjectKind, subjectId: string, now: Date, limit: number): Promise<Session[]>;
  /**
   * Ends one session of a subject, as revokeSession does; false when the subject has no such
   * session still live at `at` (unknown, another subject's, already ended or expired).
   */
  revokeSubjectSession(
    kind: SubjectKind,
    subjectId: string,
    sessionId: string,
    at: Date,
    audit?: AuditRecord,
  ): Promise<boolean>;
  /** Ends every session of a subject, except `keepSessionId` when given. */
  revokeSubjectSessions(
    kind: SubjectKind,
    subjectId: string,
    at: Date,
    keepSessionId?: string,
    audit?: AuditRecord,
  ): Promise<void>;
  /**
   * Forgets what can no longer matter at `before`: refresh tokens that expired, sessions revoked
   * earlier, and sessions left with no refresh token. Keeps the tables from growing forever.
   */
  prune(before: Date): Promise<void>;
}
export const SessionRepository = token<SessionRepository>('SessionRepository');
