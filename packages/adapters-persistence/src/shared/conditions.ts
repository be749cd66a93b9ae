import {
  and,
  eq,
  gt,
  gte,
  inArray,
  isNull,
  lt,
  lte,
  ne,
  or,
  sql,
  type Column,
  type Placeholder,
  type SQL,
  type Table,
} from 'drizzle-orm';
import type { SubjectKind, VerifiedAccount } from '@uas/domain';

// The WHERE clauses of the ports, written once for both dialects: the tables of each dialect
// have the same columns under the same names.

/** The row `id`, unless it is revoked already: a revocation keeps its first time. */
export function unrevoked(table: { id: Column; revoked: Column }, id: string): SQL | undefined {
  return and(eq(table.id, id), isNull(table.revoked));
}

/** The refresh token `id`, if it may still be exchanged: neither retired nor revoked. */
export function exchangeable(tokens: { id: Column; retired: Column; revoked: Column }, id: string): SQL | undefined {
  return and(unrevoked(tokens, id), isNull(tokens.retired));
}

/** The session's tokens that may be exchanged at `now`: neither retired, revoked nor expired. */
export function currentTokensOf(
  tokens: { sessionId: Column; retired: Column; revoked: Column; expires: Column },
  sessionId: string,
  now: Date,
): SQL | undefined {
  return and(eq(tokens.sessionId, sessionId), isNull(tokens.retired), isNull(tokens.revoked), gt(tokens.expires, now));
}

/** The account `id` if it still has what a login verified (and, for users, `active` too). */
export function stillVerified(
  accounts: { id: Column; email: Column; passwordHash: Column },
  id: string,
  { email, passwordHash }: VerifiedAccount,
  ...more: SQL[]
): SQL | undefined {
  return and(eq(accounts.id, id), eq(accounts.email, email), eq(accounts.passwordHash, passwordHash), ...more);
}

/**
 * A user that may hold a session at `at`: active, and not under a ban in force then (as the
 * domain's banInForce: none set, or one whose end has passed; a null end is never passed).
 */
export function inGoodStanding(
  users: { active: Column; bannedAt: Column; bannedUntil: Column },
  at: Date | Placeholder,
): SQL {
  // and() of conditions that are all given is never undefined.
  return and(eq(users.active, 1), or(isNull(users.bannedAt), lte(users.bannedUntil, at)))!;
}

/** A subject's sessions that are still live, but for `keepSessionId`. */
export function liveSessionsOf(
  sessions: { id: Column; kind: Column; subjectId: Column; revoked: Column },
  kind: SubjectKind,
  subjectId: string,
  keepSessionId: string | undefined,
): SQL | undefined {
  return and(
    eq(sessions.kind, kind),
    eq(sessions.subjectId, subjectId),
    isNull(sessions.revoked),
    keepSessionId === undefined ? undefined : ne(sessions.id, keepSessionId),
  );
}

/** A subject's sessions live at `now` (the domain's isSessionLive); `sessionId` alone when given. */
export function unexpiredSessionsOf(
  sessions: { id: Column; kind: Column; subjectId: Column; revoked: Column; expires: Column },
  kind: SubjectKind,
  subjectId: string,
  now: Date,
  sessionId?: string,
): SQL | undefined {
  return and(
    liveSessionsOf(sessions, kind, subjectId, undefined),
    gt(sessions.expires, now),
    sessionId === undefined ? undefined : eq(sessions.id, sessionId),
  );
}

/** Failures of `key` at or after `since`. */
export function failuresOf(
  failures: { key: Column; at: Column },
  key: string | Placeholder,
  since: Date | Placeholder,
): SQL | undefined {
  return and(eq(failures.key, key), gte(failures.at, since));
}

/** Signing keys not yet retired at `now`. */
export function usableAt(keys: { retires: Column }, now: Date): SQL | undefined {
  return or(isNull(keys.retires), gt(keys.retires, now));
}

/** Signing keys other than `kid` that have no retirement time yet. */
export function othersUndated(keys: { kid: Column; retires: Column }, kid: string): SQL | undefined {
  return and(ne(keys.kid, kid), isNull(keys.retires));
}

/** Signing keys that would start signing after `activates`: a rotation to a key activating then replaces them. */
export function activatingAfter(keys: { activates: Column }, activates: Date): SQL {
  return gt(keys.activates, activates);
}

/** Refresh tokens that expired before `before`. */
export function expiredBefore(tokens: { expires: Column }, before: Date): SQL {
  return lt(tokens.expires, before);
}

/** Sessions revoked before `before`, or left without any refresh token. */
export function prunableSessions(
  sessions: { id: Column; revoked: Column },
  tokens: Table & { sessionId: Column },
  before: Date,
): SQL | undefined {
  return or(
    lt(sessions.revoked, before),
    sql`not exists (select 1 from ${tokens} where ${tokens.sessionId} = ${sessions.id})`,
  );
}

interface ActionTokenColumns {
  digest: Column;
  purpose: Column;
  userId: Column;
  expires: Column;
  used: Column;
}

/** The token of `purpose` (or of one of them) stored under one of `digests`, if still usable at `now`: unused, unexpired. */
export function usableActionToken(
  tokens: ActionTokenColumns,
  purpose: string | readonly string[],
  digests: readonly string[],
  now: Date,
): SQL | undefined {
  return and(
    inArray(tokens.digest, [...digests]),
    typeof purpose === 'string' ? eq(tokens.purpose, purpose) : inArray(tokens.purpose, [...purpose]),
    isNull(tokens.used),
    gt(tokens.expires, now),
  );
}

/** The user's tokens not used yet: what a change of password or email voids. */
export function unusedActionTokensOf(tokens: ActionTokenColumns, userId: string): SQL | undefined {
  return and(eq(tokens.userId, userId), isNull(tokens.used));
}

/** Administrators' invitations that can still be accepted at `now`: neither used nor expired. */
export function pendingAdminInvitation(invitations: { used: Column; expires: Column }, now: Date): SQL | undefined {
  return and(isNull(invitations.used), gt(invitations.expires, now));
}

/** The invitations to `email` not used yet: what a new invitation to that address supersedes. */
export function unusedAdminInvitationsTo(invitations: { email: Column; used: Column }, email: string): SQL | undefined {
  return and(eq(invitations.email, email), isNull(invitations.used));
}

/** The invitation stored under one of `digests`, if it can still be accepted at `now`. */
export function pendingAdminInvitationUnder(
  invitations: { digest: Column; used: Column; expires: Column },
  digests: readonly string[],
  now: Date,
): SQL | undefined {
  return and(inArray(invitations.digest, [...digests]), pendingAdminInvitation(invitations, now));
}
