import { and, eq, type Placeholder, sql } from 'drizzle-orm';
import { expiredBefore, unconsumed, unexpired } from '../shared/openid-record-conditions';
import type { SqliteDb } from './sqlite-db';
import { openIdRecords } from './sqlite-schema';

// The OpenID records' statements that an index must answer, each built here once for the
// repositories that run (or prepare) them and for the tests that read their plans.

/** The record's use, if nobody used it yet: by the primary key. `at` in epoch ms when a placeholder. */
export function consumeRecord(
  db: SqliteDb,
  model: string | Placeholder,
  id: string | Placeholder,
  at: Date | Placeholder,
) {
  return db
    .update(openIdRecords)
    .set({ consumed: sql`${at instanceof Date ? at.getTime() : at}` })
    .where(unconsumed(openIdRecords, model, id));
}

/**
 * The unexpired record of `model` with this uid: by the (model, uid) index. No LIMIT: a uid is
 * one record's (random, 21 characters and more), and a bound `LIMIT ?` made this look-up three
 * times slower on SQLite (15 µs against 5), on every request that checks a session.
 */
export function selectByUid(
  db: SqliteDb,
  model: string | Placeholder,
  uid: string | Placeholder,
  now: Date | Placeholder,
) {
  return db
    .select()
    .from(openIdRecords)
    .where(and(eq(openIdRecords.model, model), eq(openIdRecords.uid, uid), unexpired(openIdRecords, now)));
}

/** A user's unexpired records of `model`, in the order first stored (the rowid): by the (account, model) index. */
export function selectAccountRecords(db: SqliteDb, model: string, accountId: string, now: Date) {
  return db
    .select()
    .from(openIdRecords)
    .where(and(eq(openIdRecords.accountId, accountId), eq(openIdRecords.model, model), unexpired(openIdRecords, now)))
    .orderBy(sql`rowid`);
}

/** Removes every record of a grant: by the grant index. */
export function deleteGrantRecords(db: SqliteDb, grantId: string) {
  return db.delete(openIdRecords).where(eq(openIdRecords.grantId, grantId));
}

/** Removes what the engine stored about a user (in the transaction deleting the user): by the account index. */
export function deleteAccountRecords(db: SqliteDb, accountId: string) {
  return db.delete(openIdRecords).where(eq(openIdRecords.accountId, accountId));
}

/** Removes what the engine stored for a client (in the transaction deleting the client): by the client index. */
export function deleteClientRecords(db: SqliteDb, clientId: string) {
  return db.delete(openIdRecords).where(eq(openIdRecords.clientId, clientId));
}

/** Removes up to `limit` records expired before `now`: by the expiry index. */
export function deleteExpiredRecords(db: SqliteDb, now: Date, limit: number) {
  const batch = db
    .select({ rowid: sql`rowid` })
    .from(openIdRecords)
    .where(expiredBefore(openIdRecords, now))
    .limit(limit);
  return db.delete(openIdRecords).where(sql`rowid in ${batch}`);
}
