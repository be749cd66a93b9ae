import type { AuditAction, AuditRecord } from '../audit/audit-event.ts';

/**
 * The events an endpoint can subscribe to, as the API and the payloads' `type` name them. Each
 * one is read from the audit trail (see webhookEventTypeOf), so it exists if and only if its change
 * committed; `webhook.test` is sent on an admin's request only.
 */
export const WEBHOOK_EVENT_TYPES = [
  'user.created',
  'user.updated',
  'user.deactivated',
  'user.reactivated',
  'user.deleted',
  'user.email_verified',
  'user.banned',
  'user.unbanned',
  'factor.activated',
  'factor.removed',
  'factors.reset',
  'webhook.test',
] as const;
export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];

/** An endpoint's subscription to every event of the catalogue, present and future. */
export const ALL_WEBHOOK_EVENTS = '*';
/** What an endpoint's `events` list holds: event types, or `*` alone for all of them. */
export type WebhookEventSelector = WebhookEventType | typeof ALL_WEBHOOK_EVENTS;

export function isWebhookEventSelector(value: string): value is WebhookEventSelector {
  return value === ALL_WEBHOOK_EVENTS || (WEBHOOK_EVENT_TYPES as readonly string[]).includes(value);
}

/** The audit actions each event type is read from; an action not named here sends nothing. */
const EVENT_OF_ACTION: Partial<Record<AuditAction, WebhookEventType>> = {
  'user.created': 'user.created',
  'user.signed_up': 'user.created',
  'user.updated': 'user.updated',
  'user.email_changed': 'user.updated',
  'user.recovery_completed': 'user.updated',
  'user.deactivated': 'user.deactivated',
  'user.deleted': 'user.deleted',
  'user.email_verified': 'user.email_verified',
  'user.banned': 'user.banned',
  'user.unbanned': 'user.unbanned',
  'factor.activated': 'factor.activated',
  'factor.removed': 'factor.removed',
  'factors.reset': 'factors.reset',
};

/**
 * The event type an audit event is delivered as; null for one that is none of the catalogue's.
 * An update that makes an inactive user active is a reactivation, whatever else it changes (as an
 * update that deactivates is recorded as a deactivation).
 */
export function webhookEventTypeOf(record: Pick<AuditRecord, 'action' | 'changes'>): WebhookEventType | null {
  const type = EVENT_OF_ACTION[record.action] ?? null;
  const active = record.changes?.active;
  if (type === 'user.updated' && active?.before === 0 && active.after === 1) return 'user.reactivated';
  return type;
}

/** Whether an endpoint subscribed with `events` receives events of `type`. */
export const webhookReceives = (events: readonly WebhookEventSelector[], type: WebhookEventType): boolean =>
  events.includes(ALL_WEBHOOK_EVENTS) || events.includes(type);
