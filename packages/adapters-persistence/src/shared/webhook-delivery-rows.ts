import { and, desc, eq, isNotNull, isNull, lte, or, sql, type Column, type SQL } from 'drizzle-orm';
import {
  type ClaimedWebhookDelivery,
  deliveryBacklog,
  sealedSigningSecrets,
  type WebhookAttemptOutcome,
  type WebhookDelivery,
  type WebhookDisabledReason,
} from '@uas/domain';
import { sealedSecretsOf } from './webhook-rows';

// The deliveries as both dialects store them: the tables have the same columns under the same
// names, so rows, conditions and orders are written once.

interface DeliveryColumns {
  id: Column;
  webhookId: Column;
  status: Column;
  attempts: Column;
  nextAttempt: Column;
  leaseUntil: Column;
  created: Column;
}

/** A delivery no worker holds: never claimed, settled, or its lease over. */
export const notHeld = (table: DeliveryColumns, now: Date): SQL | undefined =>
  or(isNull(table.leaseUntil), lte(table.leaseUntil, now));

/** The columns a claim sets: one more attempt, held (and due again) until the lease ends. */
export const claimedDeliveryColumns = (table: DeliveryColumns, leaseUntil: Date, now: Date) => ({
  attempts: sql`${table.attempts} + 1`,
  nextAttempt: leaseUntil,
  leaseUntil,
  updated: now,
});

/**
 * Deliveries a worker may claim at `now`: pending and due (a lease that ran out makes its
 * delivery due again). The status is a literal, as in the due index.
 */
export const deliveryDueAt = (table: DeliveryColumns, now: Date): SQL | undefined =>
  and(sql`${table.status} = 'pending'`, lte(table.nextAttempt, now));

/** The delivery while `claim` still holds it: no later claim has taken it over. */
export const deliveryHeldBy = (table: DeliveryColumns, claim: { id: string; attempt: number }): SQL | undefined =>
  and(eq(table.id, claim.id), eq(table.status, 'pending'), eq(table.attempts, claim.attempt));

export const newestDeliveriesFirst = (table: DeliveryColumns) => [desc(table.created), desc(table.id)];

/** An endpoint's row as a claim reads it. */
export interface ClaimedEndpointRow {
  id: string;
  url: string;
  secretKey: string;
  secret: string;
  previousSecretKey: string | null;
  previousSecret: string | null;
  previousSecretUntil: Date | null;
}

/** The claimed deliveries, each with its endpoint's URL and secrets. */
export function claimedDeliveries(
  rows: readonly WebhookDelivery[],
  endpoints: readonly ClaimedEndpointRow[],
  now: Date,
): ClaimedWebhookDelivery[] {
  const byId = new Map(endpoints.map((endpoint) => [endpoint.id, endpoint]));
  return rows.flatMap((row) => {
    const endpoint = byId.get(row.webhookId);
    if (!endpoint) return [];
    return [
      {
        id: row.id,
        webhookId: row.webhookId,
        url: endpoint.url,
        eventType: row.eventType,
        payload: row.payload,
        attempt: row.attempts,
        secrets: sealedSigningSecrets(
          { ...sealedSecretsOf(endpoint), previousSecretUntil: endpoint.previousSecretUntil },
          now,
        ),
        created: row.created,
      },
    ];
  });
}

/** The backlog from a count and a minimum as the driver reads them (a bigint count, an epoch for a date). */
export const backlogOf = (row: { pending: number; oldest: Date | number | null } | undefined, now: Date) =>
  deliveryBacklog(Number(row?.pending ?? 0), row?.oldest == null ? null : new Date(row.oldest), now);

interface EndpointColumns {
  id: Column;
  enabled: Column;
  failingSince: Column;
}

/** One update of an endpoint's row: the columns it sets where the condition holds. */
interface EndpointUpdate {
  set: { failingSince?: Date | null; enabled?: false; disabledReason?: WebhookDisabledReason; updated?: Date };
  where: SQL | undefined;
}

/**
 * What an attempt's outcome writes to its endpoint, in order: a success clears `failing_since`,
 * a 410 disables it (`gone`), a failure sets `failing_since` if unset, then disables the endpoint
 * (`failing`) once that is older than `failingBefore`.
 */
export function settledEndpointUpdates(
  table: EndpointColumns,
  webhookId: string,
  outcome: WebhookAttemptOutcome,
  failingBefore: Date,
): EndpointUpdate[] {
  const endpoint = eq(table.id, webhookId);
  if (outcome.status === 'succeeded') {
    return [{ set: { failingSince: null }, where: and(endpoint, isNotNull(table.failingSince)) }];
  }
  if (outcome.gone) return [{ set: { enabled: false, disabledReason: 'gone', updated: outcome.at }, where: endpoint }];
  return [
    { set: { failingSince: outcome.at }, where: and(endpoint, isNull(table.failingSince)) },
    {
      set: { enabled: false, disabledReason: 'failing', updated: outcome.at },
      where: and(endpoint, eq(table.enabled, true), lte(table.failingSince, failingBefore)),
    },
  ];
}
