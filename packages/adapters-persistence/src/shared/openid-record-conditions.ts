import { and, eq, gt, isNull, lt, or, type Column, type Placeholder, type SQL } from 'drizzle-orm';

// The WHERE clauses of the OpenID records, written once for both dialects (with values, or with
// placeholders for the statements prepared once).

interface OpenIdRecordColumns {
  model: Column;
  id: Column;
  expires: Column;
  consumed: Column;
}

/** The record of `model` and `id`. */
export function recordKey(
  records: OpenIdRecordColumns,
  model: string | Placeholder,
  id: string | Placeholder,
): SQL | undefined {
  return and(eq(records.model, model), eq(records.id, id));
}

/** The record of `model` and `id`, unless it expired at `now` (one without an expiry never does). */
export function liveRecord(
  records: OpenIdRecordColumns,
  model: string | Placeholder,
  id: string | Placeholder,
  now: Date | Placeholder,
): SQL | undefined {
  return and(recordKey(records, model, id), unexpired(records, now));
}

/** Records not expired at `now`: one without an expiry never is. */
export function unexpired(records: OpenIdRecordColumns, now: Date | Placeholder): SQL | undefined {
  return or(isNull(records.expires), gt(records.expires, now));
}

/** The record of `model` and `id`, if nobody used it yet: of racing updates, one matches. */
export function unconsumed(
  records: OpenIdRecordColumns,
  model: string | Placeholder,
  id: string | Placeholder,
): SQL | undefined {
  return and(recordKey(records, model, id), isNull(records.consumed));
}

/** Records that expired before `now`. */
export function expiredBefore(records: OpenIdRecordColumns, now: Date): SQL {
  return lt(records.expires, now);
}
