import type { WebhookDelivery } from './webhook-delivery.ts';
import type { NewWebhookDelivery, WebhookAttemptOutcome } from './webhook-delivery.repository.ts';

// How a delivery's fields change as it is made, requeued and settled: written once for every store.

/** A new delivery: pending, due at `now` (by default its creation: the event's time), never attempted. */
export const newDeliveryFields = (delivery: NewWebhookDelivery, now: Date = delivery.created): WebhookDelivery => ({
  ...delivery,
  status: 'pending',
  attempts: 0,
  nextAttempt: now,
  leaseUntil: null,
  lastStatus: null,
  lastError: null,
  lastDurationMs: null,
  updated: now,
  delivered: null,
});

/** What a replay sets: pending, due at `now`, with the whole retry schedule ahead of it again. */
export const requeuedDeliveryFields = (now: Date) => ({
  status: 'pending' as const,
  attempts: 0,
  nextAttempt: now,
  leaseUntil: null,
  updated: now,
});

/** What an attempt's outcome writes to its delivery. */
export const settledDeliveryFields = (outcome: WebhookAttemptOutcome) => ({
  status: outcome.status,
  nextAttempt: outcome.nextAttempt ?? outcome.at,
  leaseUntil: null,
  lastStatus: outcome.responseStatus,
  lastError: outcome.error,
  lastDurationMs: outcome.durationMs,
  updated: outcome.at,
  ...(outcome.status === 'succeeded' ? { delivered: outcome.at } : {}),
});

/** The backlog as the lag gauge reports it: how many are pending, and how late the oldest due one is. */
export const deliveryBacklog = (pending: number, oldestDue: Date | null, now: Date) => ({
  pending,
  oldestDueSeconds: oldestDue === null ? 0 : Math.max(0, (now.getTime() - oldestDue.getTime()) / 1000),
});
