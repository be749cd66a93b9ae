import type { JsonValue } from '../shared/json.ts';
import type { EmailVerifiedInput, User } from '../users/user.ts';
import { verifiedAt } from '../users/user.rules.ts';

/** What an import does with a record whose user exists already (same email, or same id). */
export const CONFLICT_POLICIES = ['skip', 'update', 'fail'] as const;
export type ConflictPolicy = (typeof CONFLICT_POLICIES)[number];

/** A valid record made into a user: id, hash and timestamps filled in where the record was silent. */
export interface ImportEntry {
  line: number;
  user: User;
  /**
   * Which of id, created, updated and a password the record gave, and what it said of the
   * verification: an update keeps the stored ones otherwise.
   */
  given: { id: boolean; created: boolean; updated: boolean; password: boolean; emailVerified?: EmailVerifiedInput };
}

export type EntryOutcome =
  | { line: number; result: 'created' | 'updated' | 'skipped' }
  | { line: number; result: 'rejected'; reason: string };

/** What one batch does, decided from the users it meets in the store. */
export interface ImportPlan {
  outcomes: EntryOutcome[];
  inserts: User[];
  updates: User[];
  /** Stored users whose password changed or who were deactivated: their sessions end. */
  endSessions: string[];
  /** Under `fail`, the conflict that stops the import: nothing of the batch is written. */
  failure: { line: number; reason: string } | null;
}

function sameJson(a: JsonValue, b: JsonValue): boolean {
  if (a === b) return true;
  if (
    typeof a !== 'object' ||
    typeof b !== 'object' ||
    a === null ||
    b === null ||
    Array.isArray(a) !== Array.isArray(b)
  )
    return false;
  const keys = Object.keys(a);
  if (keys.length !== Object.keys(b).length) return false;
  // PostgreSQL's jsonb does not keep key order, so objects are compared key by key.
  return keys.every(
    (key) => key in b && sameJson((a as Record<string, JsonValue>)[key]!, (b as Record<string, JsonValue>)[key]!),
  );
}

function sameUser(a: User, b: User): boolean {
  return (
    a.id === b.id &&
    a.name === b.name &&
    a.email === b.email &&
    a.passwordHash === b.passwordHash &&
    a.active === b.active &&
    a.emailVerified?.getTime() === b.emailVerified?.getTime() &&
    a.created.getTime() === b.created.getTime() &&
    a.updated.getTime() === b.updated.getTime() &&
    a.version === b.version &&
    sameJson(a.metadata, b.metadata) &&
    sameJson(a.app, b.app)
  );
}

interface Slot {
  /** The user as the batch has it so far. */
  user: User;
  /** The user as stored before the batch, or null for one the batch creates. */
  stored: User | null;
  endsSessions: boolean;
}

/**
 * Decides what a batch of entries does, given every stored user that shares an email or an id
 * with one of them. Entries are taken in order, so a later record meets an earlier one of the
 * same batch as an existing user. A record whose user exists is a conflict: skipped, updated (a
 * record that changes nothing is skipped, so a re-run changes nothing), or under `fail` the end.
 */
export function planImport(
  entries: readonly ImportEntry[],
  stored: readonly User[],
  policy: ConflictPolicy,
  now: Date,
): ImportPlan {
  const byEmail = new Map<string, Slot>();
  const byId = new Map<string, Slot>();
  const slots: Slot[] = [];
  const place = (slot: Slot) => {
    byEmail.set(slot.user.email, slot);
    byId.set(slot.user.id, slot);
    slots.push(slot);
  };
  for (const user of stored) place({ user, stored: user, endsSessions: false });
  const outcomes: EntryOutcome[] = [];

  for (const { line, user, given } of entries) {
    const idOwner = byId.get(user.id);
    const emailOwner = byEmail.get(user.email);
    const slot = idOwner ?? emailOwner;
    if (!slot) {
      place({ user, stored: null, endsSessions: false });
      outcomes.push({ line, result: 'created' });
      continue;
    }
    const mismatch =
      idOwner && emailOwner && idOwner !== emailOwner
        ? 'its id and its email belong to two different users'
        : given.id && slot.user.id !== user.id
          ? `a user with this email exists under another id (${slot.user.id})`
          : null;
    if (policy === 'fail') {
      return {
        outcomes,
        inserts: [],
        updates: [],
        endSessions: [],
        failure: { line, reason: mismatch ?? 'a user with this email or id exists already' },
      };
    }
    if (policy === 'skip') {
      outcomes.push({ line, result: 'skipped' });
      continue;
    }
    if (mismatch) {
      outcomes.push({ line, result: 'rejected', reason: mismatch });
      continue;
    }
    const merged: User = {
      ...user,
      id: slot.user.id,
      created: given.created ? user.created : slot.user.created,
      updated: given.updated ? user.updated : slot.user.updated,
      // A record without a password or hash leaves a stored user's password as it is.
      passwordHash: given.password ? user.passwordHash : slot.user.passwordHash,
      version: slot.user.version,
      // An import carries no logins: a stored user keeps its own.
      lastLogin: slot.user.lastLogin,
      // Nor bans (an export writes none): a stored user keeps its own.
      bannedAt: slot.user.bannedAt,
      bannedUntil: slot.user.bannedUntil,
      banReason: slot.user.banReason,
      emailVerified: verifiedAt(slot.user.emailVerified, given.emailVerified, now),
    };
    if (sameUser(merged, slot.user)) {
      outcomes.push({ line, result: 'skipped' });
      continue;
    }
    // A stored user that changes is a new version (its ETag changes); one the batch creates stays at 1.
    const updated = {
      ...merged,
      updated: given.updated ? merged.updated : now,
      version: (slot.stored?.version ?? 0) + 1,
    };
    if (slot.stored) {
      slot.endsSessions ||=
        updated.passwordHash !== slot.stored.passwordHash || (slot.stored.active === 1 && updated.active === 0);
    }
    byEmail.delete(slot.user.email);
    slot.user = updated;
    byEmail.set(updated.email, slot);
    outcomes.push({ line, result: 'updated' });
  }
  return {
    outcomes,
    inserts: slots.filter((slot) => slot.stored === null).map((slot) => slot.user),
    updates: slots.filter((slot) => slot.stored !== null && slot.user !== slot.stored).map((slot) => slot.user),
    endSessions: slots.filter((slot) => slot.endsSessions).map((slot) => slot.user.id),
    failure: null,
  };
}
