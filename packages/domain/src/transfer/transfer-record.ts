import { hasPassword } from '../users/password-match.ts';
import { isoTimestamp as timestamp } from '../shared/clock.ts';
import { isUuid } from '../shared/id-generator.ts';
import { isJsonObject, type JsonObject } from '../shared/json.ts';
import type { PasswordHasher } from '../shared/password-hasher.ts';
import type { ActiveFlag, EmailVerifiedInput, User } from '../users/user.ts';
import { normalizeEmail, userAttributeIssues } from '../users/user.rules.ts';

/**
 * One user as an export writes it and an import reads it (a line of NDJSON, an element of a JSON
 * array, a CSV row). Export always fills every member; `password_hash` only when asked.
 * `email_verified` is the time the address was verified or `false` (not null, which a CSV cell
 * could not tell from absent); an import also takes `true`, and an absent one is verified now.
 */
export interface TransferRecord {
  id: string;
  name: string;
  email: string;
  metadata: JsonObject;
  app: JsonObject;
  active: ActiveFlag;
  email_verified: string | boolean;
  created: string;
  updated: string;
  password_hash?: string;
}

/** The members an import accepts, in the order an export writes them (and CSV columns come). */
export const TRANSFER_FIELDS = [
  'id',
  'name',
  'email',
  'metadata',
  'app',
  'active',
  'email_verified',
  'created',
  'updated',
  'password',
  'password_hash',
] as const;
export type TransferField = (typeof TRANSFER_FIELDS)[number];

/**
 * A user as an export writes it. A user without a password (invited and not yet accepted, or
 * imported without one) has no hash to write: its record has none, so it imports back as such.
 */
export function toTransferRecord(user: User, withPasswordHash: boolean): TransferRecord {
  return {
    id: user.id,
    name: user.name,
    email: user.email,
    metadata: user.metadata,
    app: user.app,
    active: user.active,
    email_verified: user.emailVerified?.toISOString() ?? false,
    created: user.created.toISOString(),
    updated: user.updated.toISOString(),
    ...(withPasswordHash && hasPassword(user.passwordHash) ? { password_hash: user.passwordHash } : {}),
  };
}

/** A valid record, before an id, a hash and timestamps are filled in where it gave none. */
export interface ImportDraft {
  id?: string;
  name: string;
  email: string;
  metadata: JsonObject;
  app: JsonObject;
  active: ActiveFlag;
  emailVerified?: EmailVerifiedInput;
  created?: Date;
  updated?: Date;
  password?: string;
  passwordHash?: string;
}

const TYPES: Record<TransferField, string | readonly string[]> = {
  id: 'string',
  name: 'string',
  email: 'string',
  metadata: 'object',
  app: 'object',
  active: 'number',
  email_verified: ['string', 'boolean'],
  created: 'string',
  updated: 'string',
  password: 'string',
  password_hash: 'string',
};

/**
 * Checks one record by the rules the API applies to a created user, plus those of an import (an
 * id, timestamps, a password or a hash the hasher can take). Every problem is named.
 */
export function readTransferRecord(
  raw: unknown,
  hasher: Pick<PasswordHasher, 'importProblem'>,
): { draft: ImportDraft } | { reasons: string[] } {
  if (!isJsonObject(raw)) return { reasons: ['a record must be a JSON object'] };
  const reasons: string[] = [];
  for (const [key, value] of Object.entries(raw)) {
    const type = TYPES[key as TransferField];
    if (type === undefined) reasons.push(`${key} is not an attribute of a user`);
    else if (value === null) reasons.push(`${key} must not be null`);
    else if (![type].flat().includes(typeof value) || (type === 'object' && !isJsonObject(value))) {
      reasons.push(`${key} must be ${type === 'object' ? 'a JSON object' : `a ${[type].flat().join(' or a ')}`}`);
    }
  }
  if (reasons.length > 0) return { reasons };
  const record = raw as Partial<TransferRecord> & { password?: string };
  if (record.email === undefined) reasons.push('email is required');
  // With neither, the user has no password until one is set (an export without hashes reads back so).
  if (record.password !== undefined && record.password_hash !== undefined) {
    reasons.push('password and password_hash exclude each other');
  }
  const { name, email, metadata, app, active, password, email_verified: emailVerified } = record;
  const attributes = { name, email, metadata, app, active, password, emailVerified };
  reasons.push(...userAttributeIssues(attributes).map((issue) => issue.detail));
  const hashProblem = record.password_hash === undefined ? null : hasher.importProblem(record.password_hash);
  if (hashProblem) reasons.push(`password_hash ${hashProblem}`);
  const id = record.id?.toLowerCase();
  if (id !== undefined && !isUuid(id)) reasons.push('id must be a UUID');
  const created = record.created === undefined ? undefined : timestamp(record.created);
  const updated = record.updated === undefined ? undefined : timestamp(record.updated);
  if (created === null) reasons.push('created must be an ISO 8601 UTC timestamp');
  if (updated === null) reasons.push('updated must be an ISO 8601 UTC timestamp');
  if (reasons.length > 0) return { reasons };
  return {
    draft: {
      id,
      name: name ?? '',
      email: normalizeEmail(email!),
      metadata: metadata ?? {},
      app: app ?? {},
      active: (active ?? 1) as ActiveFlag,
      emailVerified,
      created: created ?? undefined,
      updated: updated ?? undefined,
      password,
      passwordHash: record.password_hash,
    },
  };
}
