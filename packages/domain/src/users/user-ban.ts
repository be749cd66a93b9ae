import type { AuditChanges } from '../audit/audit-event.ts';
import { isoTimestamp } from '../shared/clock.ts';
import type { ValidationIssue } from '../shared/errors.ts';
import { isStorableText } from '../shared/json.ts';
import type { BanInput, User } from './user.ts';
import { UNSTORABLE_TEXT } from './user.rules.ts';

export const BAN_REASON_MAX_LENGTH = 500;

/** The ban columns of a user never banned (or whose ban was lifted): what every new user starts with. */
export const NO_BAN = { bannedAt: null, bannedUntil: null, banReason: null } as const satisfies Pick<
  User,
  'bannedAt' | 'bannedUntil' | 'banReason'
>;

/** Whether the user's ban is in force at `now`: set, and without an end or ending later. */
export function banInForce(user: Pick<User, 'bannedAt' | 'bannedUntil'>, now: Date): boolean {
  return user.bannedAt !== null && (user.bannedUntil === null || user.bannedUntil.getTime() > now.getTime());
}

function reasonProblem(reason: unknown): string | null {
  if (typeof reason !== 'string' || reason.trim() === '') return 'is required';
  if (reason.length > BAN_REASON_MAX_LENGTH) return `must be at most ${BAN_REASON_MAX_LENGTH} characters`;
  return isStorableText(reason) ? null : UNSTORABLE_TEXT;
}

function untilProblem(until: unknown, now: Date): string | null {
  if (until === null) return null;
  const end = isoTimestamp(until);
  if (end === null) return 'must be null or an ISO 8601 UTC timestamp';
  return end.getTime() > now.getTime() ? null : 'must be in the future';
}

/** Every problem with a ban as an admin states it (`{ reason, until }`), one issue per member. */
export function banIssues(input: Partial<Record<keyof BanInput, unknown>>, now: Date): ValidationIssue[] {
  const problems = [
    ['reason', reasonProblem(input.reason)],
    ['until', untilProblem(input.until === undefined ? null : input.until, now)],
  ] as const;
  return problems.flatMap(([member, problem]) =>
    problem ? [{ source: { pointer: `/${member}` }, detail: `${member} ${problem}` }] : [],
  );
}

/**
 * The user banned from `now` (a new ban replaces one in force: its reason and end are the
 * admin's latest word). A change of the user: a new version.
 */
export function applyBan(user: User, ban: BanInput, now: Date): User {
  return {
    ...user,
    bannedAt: now,
    bannedUntil: ban.until === null ? null : isoTimestamp(ban.until),
    banReason: ban.reason,
    updated: now,
    version: user.version + 1,
  };
}

/** The user with no ban: a new version when there was one to lift, the same record otherwise. */
export function liftBan(user: User, now: Date): User {
  if (user.bannedAt === null) return user;
  return { ...user, ...NO_BAN, updated: now, version: user.version + 1 };
}

/** A ban (or its lifting) as the audit trail shows it: whether in force, the reason and the end, before and after. */
export function banChanges(before: User, after: User, now: Date): AuditChanges {
  const view = (user: User) => {
    const inForce = banInForce(user, now);
    return {
      banned: inForce,
      reason: inForce ? user.banReason : null,
      until: inForce ? (user.bannedUntil?.toISOString() ?? null) : null,
    };
  };
  const was = view(before);
  const is = view(after);
  return {
    banned: { before: was.banned, after: is.banned },
    ban_reason: { before: was.reason, after: is.reason },
    banned_until: { before: was.until, after: is.until },
  };
}
