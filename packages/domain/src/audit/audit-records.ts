import type { Identity } from '../shared/identity.ts';
import type { JsonValue } from '../shared/json.ts';
import type { User } from '../users/user.ts';
import {
  CHANGED,
  type AuditAction,
  type AuditChanges,
  type AuditRecord,
  type AuditTarget,
  type Initiator,
  type RequestContext,
} from './audit-event.ts';

/** An event of `action` by `by`, with an id and a time of the caller's ids and clock. */
export function auditRecord(
  id: string,
  time: Date,
  by: Initiator,
  action: AuditAction,
  target: AuditTarget | null,
  changes: AuditChanges | null = null,
): AuditRecord {
  return { id, time, actor: by.actor, action, target, changes, request: by.request };
}

/**
 * The caller of a request made with an access token, as the audit trail records it: the admin
 * behind an impersonation session, not the user it acts as.
 */
export function initiatorOf(identity: Identity, request: RequestContext): Initiator {
  if (identity.impersonatorId !== undefined) return { actor: { type: 'admin', id: identity.impersonatorId }, request };
  return { actor: { type: identity.kind, id: identity.subjectId }, request };
}

export const userTarget = (id: string): AuditTarget => ({ type: 'users', id });

/** The attributes of a user an event shows (never the hash; a new one shows as `changed`). */
const USER_ATTRIBUTES = ['name', 'email', 'metadata', 'app', 'active'] as const;

/**
 * What changed from `before` to `after` (null on either side: the user did not exist). Attributes
 * compare by value; a new password hash is recorded as `changed`.
 */
export function userChanges(before: User | null, after: User | null): AuditChanges {
  const changes: Record<string, { before: JsonValue; after: JsonValue }> = {};
  for (const name of USER_ATTRIBUTES) {
    const was = before?.[name] ?? null;
    const is = after?.[name] ?? null;
    if (JSON.stringify(was) !== JSON.stringify(is)) changes[name] = { before: was, after: is };
  }
  const verified = (user: User | null) => user?.emailVerified?.toISOString() ?? null;
  if (verified(before) !== verified(after)) {
    changes.email_verified = { before: verified(before), after: verified(after) };
  }
  if (before && after && before.passwordHash !== after.passwordHash) {
    changes.password = { before: CHANGED, after: CHANGED };
  }
  // The user's version (its ETag's number) beside what changed: a webhook receiver drops a stale
  // update by it. Only with a change: an event that changes nothing records none.
  if (Object.keys(changes).length > 0)
    changes.version = { before: before?.version ?? null, after: after?.version ?? null };
  return changes;
}

/** An update that deactivates an active user is recorded as a deactivation, whatever else it changes. */
export function userUpdateAction(before: User, after: User): AuditAction {
  return before.active === 1 && after.active === 0 ? 'user.deactivated' : 'user.updated';
}
