import { and, eq, getTableColumns, sql } from 'drizzle-orm';
import { expiredBefore, unconsumed, unexpired } from '../shared/openid-record-conditions';
import type { PostgresDb, PostgresTx } from './postgres-db';
import { openIdRecords } from './postgres-schema';

// The OpenID records' statements that an index must answer, each built here once for the
// repositories that run them and for the tests that read their plans.

const { ord: _ord, ...recorded } = getTableColumns(openIdRecords);
/** A record's columns: the order it was first stored in is only for sorting. */
export const recordColumns = recorded;

type Handle = PostgresDb | PostgresTx;

/** The record's use, if nobody used it yet: by the primary key. */
export function consumeRecord(db: Handle, model: string, id: string, at: Date) {
  return db
    .update(openIdRecords)
    .set({ consumed: at })
    .where(unconsumed(openIdRecords, model, id))
    .returning({ id: openIdRecords.id });
}

/** The unexpired record of `model` with this uid: by the (model, uid) index. */
export function selectByUid(db: Handle, model: string, uid: string, now: Date) {
  return db
    .select(recordColumns)
    .from(openIdRecords)
    .where(and(eq(openIdRecords.model, model), eq(openIdRecords.uid, uid), unexpired(openIdRecords, now)))
    .limit(1);
}

/** A user's unexpired records of `model`, in the order first stored: by the (account, model, ord) index. */
export function selectAccountRecords(db: Handle, model: string, accountId: string, now: Date) {
  return db
    .select(recordColumns)
    .from(openIdRecords)
    .where(and(eq(openIdRecords.accountId, accountId), eq(openIdRecords.model, model), unexpired(openIdRecords, now)))
    .orderBy(openIdRecords.ord);
}

/** Removes every record of a grant: by the grant index. */
export function deleteGrantRecords(db: Handle, grantId: string) {
  return db.delete(openIdRecords).where(eq(openIdRecords.grantId, grantId)).returning({ id: openIdRecords.id });
}

/** Removes what the engine stored about a user (in the transaction deleting the user): by the account index. */
export function deleteAccountRecords(db: Handle, accountId: string) {
  return db.delete(openIdRecords).where(eq(openIdRecords.accountId, accountId));
}

/** Removes what the engine stored for a client (in the transaction deleting the client): by the client index. */
export function deleteClientRecords(db: Handle, clientId: string) {
  return db.delete(openIdRecords).where(eq(openIdRecords.clientId, clientId));
}

/** Removes up to `limit` records expired before `now`: by the expiry index. */
export function deleteExpiredRecords(db: Handle, now: Date, limit: number) {
  const batch = db
    .select({ model: openIdRecords.model, id: openIdRecords.id })
    .from(openIdRecords)
    .where(expiredBefore(openIdRecords, now))
    .limit(limit);
  return db
    .delete(openIdRecords)
    .where(sql`(${openIdRecords.model}, ${openIdRecords.id}) in ${batch}`)
    .returning({ id: openIdRecords.id });
}
