import type { WebhookEventType } from './webhook-events.ts';

export const WEBHOOK_DELIVERY_STATUSES = ['pending', 'succeeded', 'failed'] as const;
export type WebhookDeliveryStatus = (typeof WEBHOOK_DELIVERY_STATUSES)[number];

/**
 * One event to send to one endpoint, and how sending it went. Its id is the `webhook-id` header,
 * the same on every attempt; `payload` is the exact body, fixed when the delivery is made, so
 * every attempt sends the same bytes.
 */
export interface WebhookDelivery {
  readonly id: string;
  readonly webhookId: string;
  /** The audit event's place in the chain; null for a test event. */
  readonly seq: number | null;
  readonly eventType: WebhookEventType;
  readonly payload: string;
  readonly status: WebhookDeliveryStatus;
  readonly attempts: number;
  readonly nextAttempt: Date;
  /** Until when a worker holds it; null while no worker does. */
  readonly leaseUntil: Date | null;
  /** The receiver's last HTTP status; null when it gave none (no attempt yet, refused, timed out). */
  readonly lastStatus: number | null;
  readonly lastError: string | null;
  readonly lastDurationMs: number | null;
  readonly created: Date;
  readonly updated: Date;
  readonly delivered: Date | null;
}
