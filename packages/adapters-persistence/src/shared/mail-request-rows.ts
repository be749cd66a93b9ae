import { asc, eq, and, isNull, lte, or, sql, type Column, type SQL } from 'drizzle-orm';
import type { ClaimedMailRequest, MailRequest } from '@uas/domain';

interface MailRequestColumns {
  id: Column;
  created: Column;
  attempt: Column;
  leaseUntil: Column;
}

interface MailRequestRow {
  id: string;
  kind: MailRequest['kind'];
  email: string;
  created: Date;
  requestId: string | null;
  clientAddress: string | null;
  userAgent: string | null;
  attempt: number;
  leaseUntil: Date | null;
}

/** The row a recorded request is stored as. */
export const newMailRequestRow = ({ request, ...rest }: MailRequest) => ({ ...rest, ...request });

/** A claimed row as the domain reads it. */
export const claimedMailRequest = ({
  leaseUntil: _lease,
  requestId,
  clientAddress,
  userAgent,
  ...rest
}: MailRequestRow): ClaimedMailRequest => ({
  ...rest,
  request: { requestId, clientAddress, userAgent },
});

/** Requests a claim may take at `now`: never claimed, or whose claim's lease ended. */
export const dueRequestAt = (t: MailRequestColumns, now: Date): SQL | undefined =>
  or(isNull(t.leaseUntil), lte(t.leaseUntil, now));

/** Claims answer the oldest first, whatever order RETURNING gave the rows in. */
export const byAge = (a: ClaimedMailRequest, b: ClaimedMailRequest) =>
  a.created.getTime() - b.created.getTime() || (a.id < b.id ? -1 : 1);

export const oldestRequestFirst = (t: MailRequestColumns) => [asc(t.created), asc(t.id)];

/** What a claim sets: a lease and one more attempt. */
export const claimedRequestColumns = (t: MailRequestColumns, leaseUntil: Date) => ({
  leaseUntil,
  attempt: sql`${t.attempt} + 1`,
});

/** The request as the claim that made `attempt` holds it: no later claim has taken it over. */
export const heldRequest = (t: MailRequestColumns, claim: Pick<ClaimedMailRequest, 'id' | 'attempt'>) =>
  and(eq(t.id, claim.id), eq(t.attempt, claim.attempt));
