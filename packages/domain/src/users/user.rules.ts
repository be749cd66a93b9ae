import { isoTimestamp } from '../shared/clock.ts';
import { isStorableJson, isStorableText, jsonByteLength, utf8ByteLength, type JsonObject } from '../shared/json.ts';
import type { ValidationIssue } from '../shared/errors.ts';
import type { ActiveFlag, EmailVerifiedInput, NewUser, User, UserPatch } from './user.ts';

export const PASSWORD_MIN_BYTES = 8;
/** bcrypt ignores every byte past the 72nd, so longer passwords are refused, never truncated. */
export const PASSWORD_MAX_BYTES = 72;
export const CLAIMS_MAX_BYTES = 8 * 1024;
export const NAME_MAX_LENGTH = 200;
export const EMAIL_MAX_LENGTH = 254;

export function normalizeEmail(email: string): string {
  return email.trim().toLowerCase();
}

/**
 * A search term as repositories take it: normalised as stored emails are, so a plain substring
 * match finds it in any case; undefined when nothing is left to search for.
 */
export function emailSearchTerm(term: string | undefined): string | undefined {
  return term === undefined ? undefined : normalizeEmail(term) || undefined;
}

// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what this refuses
const LOCAL_PART = /^[^\s@"(),:;<>[\\\]\u0000-\u001f\u007f]+$/;
const DOMAIN_LABEL = /^[\p{L}\p{N}](?:[\p{L}\p{N}-]{0,61}[\p{L}\p{N}])?$/u;
const TOP_LEVEL_LABEL = /^(?:\p{L}{2,}|xn--[a-z0-9-]+)$/u;

/**
 * Whether a (normalised) string is an address we accept: a local part without spaces, quotes or
 * stray dots, one @, and a domain of at least two labels that neither start nor end with a hyphen.
 */
export function isValidEmail(email: string): boolean {
  if (email.length > EMAIL_MAX_LENGTH || !isStorableText(email)) return false;
  const at = email.lastIndexOf('@');
  const local = email.slice(0, at);
  const labels = email.slice(at + 1).split('.');
  return (
    at > 0 &&
    LOCAL_PART.test(local) &&
    !local.startsWith('.') &&
    !local.endsWith('.') &&
    !local.includes('..') &&
    labels.length >= 2 &&
    labels.every((label) => DOMAIN_LABEL.test(label)) &&
    TOP_LEVEL_LABEL.test(labels.at(-1) ?? '')
  );
}

/** Why a password is refused, or null when it is acceptable. */
export function passwordProblem(password: string): string | null {
  const bytes = utf8ByteLength(password);
  if (bytes < PASSWORD_MIN_BYTES) return `must be at least ${PASSWORD_MIN_BYTES} bytes long`;
  if (bytes > PASSWORD_MAX_BYTES) return `must be at most ${PASSWORD_MAX_BYTES} bytes long (UTF-8)`;
  if (password.includes('\u0000')) return 'must not contain a NUL character';
  return null;
}

export function isActiveFlag(value: number): value is ActiveFlag {
  return value === 0 || value === 1;
}

/**
 * When a user's address counts as verified after a caller states `asked` about it (absent: as it
 * was): `true` keeps an earlier verification's time, else now; `false` clears it; a time is taken.
 */
export function verifiedAt(current: Date | null, asked: EmailVerifiedInput | undefined, now: Date): Date | null {
  if (asked === undefined) return current;
  if (typeof asked === 'string') return isoTimestamp(asked);
  return asked ? (current ?? now) : null;
}

const isEmailVerifiedInput = (value: unknown): value is EmailVerifiedInput =>
  typeof value === 'boolean' || isoTimestamp(value) !== null;

/** Why text that isStorableText refuses is refused, for any attribute or parameter. */
export const UNSTORABLE_TEXT = 'must be well-formed Unicode text without NUL characters';

function claimsProblem(claims: JsonObject): string | null {
  if (jsonByteLength(claims) > CLAIMS_MAX_BYTES) return `must be at most ${CLAIMS_MAX_BYTES} bytes of JSON`;
  return isStorableJson(claims) ? null : `keys and strings ${UNSTORABLE_TEXT}, and numbers finite`;
}

function nameProblem(name: string): string | null {
  if (name.length > NAME_MAX_LENGTH) return `must be at most ${NAME_MAX_LENGTH} characters`;
  return isStorableText(name) ? null : UNSTORABLE_TEXT;
}

const pointer = (attribute: string) => ({ pointer: `/data/attributes/${attribute}` });

/** Every problem with the present attributes of a create or update, one issue per attribute. */
export function userAttributeIssues(attributes: UserPatch): ValidationIssue[] {
  const issues: ValidationIssue[] = [];
  const report = (attribute: string, problem: string | null) => {
    if (problem) issues.push({ source: pointer(attribute), detail: `${attribute} ${problem}` });
  };
  if (attributes.name !== undefined) {
    report('name', nameProblem(attributes.name));
  }
  if (attributes.email !== undefined) {
    report('email', isValidEmail(normalizeEmail(attributes.email)) ? null : 'must be a valid email address');
  }
  if (attributes.password !== undefined) report('password', passwordProblem(attributes.password));
  if (attributes.active !== undefined) {
    report('active', isActiveFlag(attributes.active) ? null : 'must be 0 or 1');
  }
  if (attributes.emailVerified !== undefined) {
    const valid = isEmailVerifiedInput(attributes.emailVerified);
    report('email_verified', valid ? null : 'must be true, false or an ISO 8601 UTC timestamp');
  }
  if (attributes.metadata !== undefined) report('metadata', claimsProblem(attributes.metadata));
  if (attributes.app !== undefined) report('app', claimsProblem(attributes.app));
  return issues;
}

/** Issues of a new user: the attribute rules plus the required email and password. */
export function newUserIssues(input: Partial<NewUser>): ValidationIssue[] {
  const missing: ValidationIssue[] = (['email', 'password'] as const)
    .filter((attribute) => input[attribute] === undefined)
    .map((attribute) => ({ source: pointer(attribute), detail: `${attribute} is required` }));
  return [...missing, ...userAttributeIssues(input)];
}

/** A validated patch with the password already hashed: what applyUserPatch merges. */
export interface UserChanges {
  name?: string;
  email?: string;
  passwordHash?: string;
  metadata?: JsonObject;
  app?: JsonObject;
  active?: ActiveFlag;
  emailVerified?: EmailVerifiedInput;
}

/**
 * The PATCH merge rule: an attribute missing from the changes keeps its current value (never
 * null); `metadata` and `app` replace the whole object when present. Every change is a new version.
 * A new email keeps the verification as it was unless the changes state it: an admin's change is
 * the admin's word for the new address.
 */
export function applyUserPatch(user: User, changes: UserChanges, now: Date): User {
  return {
    ...user,
    name: changes.name ?? user.name,
    email: changes.email === undefined ? user.email : normalizeEmail(changes.email),
    passwordHash: changes.passwordHash ?? user.passwordHash,
    metadata: changes.metadata ?? user.metadata,
    app: changes.app ?? user.app,
    active: changes.active ?? user.active,
    emailVerified: verifiedAt(user.emailVerified, changes.emailVerified, now),
    updated: now,
    version: user.version + 1,
  };
}

/**
 * Whether changes void the user's outstanding single-use tokens: a new password (a recovery link
 * sent before must not undo it), a new email (a link sent to the old address must not act), or
 * deactivation (a link an admin handed out before must not set a password on a closed account).
 */
export function changesVoidTokens(user: User, changes: UserChanges): boolean {
  return (
    changes.passwordHash !== undefined ||
    (user.active === 1 && changes.active === 0) ||
    (changes.email !== undefined && normalizeEmail(changes.email) !== user.email)
  );
}

/**
 * Whether changes must end the user's sessions: any password sent (even the same one, so the
 * outcome never depends on the hasher), deactivation of an active account, or a new email (the
 * login identity the sessions were opened for).
 */
export function changesEndSessions(user: User, changes: UserChanges): boolean {
  return (
    changes.passwordHash !== undefined ||
    (user.active === 1 && changes.active === 0) ||
    (changes.email !== undefined && normalizeEmail(changes.email) !== user.email)
  );
}
