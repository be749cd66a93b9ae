import { and, asc, desc, eq, lte, sql, type Column, type SQL } from 'drizzle-orm';
import {
  settledColumns,
  type ClaimedMail,
  type MailKind,
  type MailMessage,
  type MailOutcome,
  type MailStatus,
  type NewMail,
} from '@uas/domain';

// The outbox and the key ring as both dialects store them: the tables of each dialect have the
// same columns under the same names, so rows, conditions and orders are written once.

/** A message as both dialects store it: the sealed body as its key id and its ciphertext. */
export interface MailRow {
  id: string;
  kind: MailKind;
  recipient: string;
  subject: string;
  bodyKey: string | null;
  body: string | null;
  created: Date;
  status: MailStatus;
  attempts: number;
  nextAttemptAt: Date | null;
  lastError: string | null;
  deliveredAt: Date | null;
}

interface MailColumns {
  id: Column;
  status: Column;
  attempts: Column;
  nextAttemptAt: Column;
  created: Column;
}

export function newMailRow({ body, ...message }: NewMail): MailRow {
  return {
    ...message,
    bodyKey: body.keyId,
    body: body.ciphertext,
    status: 'queued',
    attempts: 0,
    nextAttemptAt: message.created,
    lastError: null,
    deliveredAt: null,
  };
}

export function mailMessage({ bodyKey, body, ...row }: MailRow): MailMessage {
  return { ...row, body: bodyKey !== null && body !== null ? { keyId: bodyKey, ciphertext: body } : null };
}

export function claimedMail(row: MailRow): ClaimedMail {
  const { id, kind, recipient, subject, body, attempts } = mailMessage(row);
  return { id, kind, recipient, subject, body: body!, attempt: attempts };
}

/** The columns a claim sets: `sending` until the lease ends, one more attempt. */
export function claimedColumns(table: MailColumns, leaseUntil: Date) {
  return { status: 'sending' as const, attempts: sql`${table.attempts} + 1`, nextAttemptAt: leaseUntil };
}

/** What an outcome writes, a cleared body being both of its columns. */
export function settledRow(attempt: number, outcome: MailOutcome): Partial<MailRow> {
  const columns = settledColumns(attempt, outcome);
  return 'body' in columns ? { ...columns, bodyKey: null } : columns;
}

/**
 * Messages a sender may claim at `now`: queued and due, or sending past their lease. The statuses
 * are written as literals, as in the partial due index's predicate: as bound parameters, neither
 * SQLite nor a generic PostgreSQL plan could tell that the index holds every row they name.
 */
export function dueAt(table: MailColumns, now: Date): SQL | undefined {
  return and(sql`${table.status} in ('queued', 'sending')`, lte(table.nextAttemptAt, now));
}

/** The due index's order: the longest due first (ties in any order). */
export const oldestDueFirst = (table: MailColumns) => [asc(table.nextAttemptAt)];
export const newestFirst = (table: MailColumns) => [desc(table.created), desc(table.id)];

/** The message while `claim` still holds it: no later claim has taken it over. */
export function heldBy(table: MailColumns, claim: Pick<ClaimedMail, 'id' | 'attempt'>): SQL | undefined {
  return and(eq(table.id, claim.id), eq(table.status, 'sending'), eq(table.attempts, claim.attempt));
}

/** The current secret first, then the retired ones, newest first. */
export const currentThenNewest = (table: { retired: Column; created: Column; id: Column }) => [
  sql`${table.retired} is not null`,
  desc(table.created),
  desc(table.id),
];
