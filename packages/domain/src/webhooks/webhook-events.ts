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
  'user.identity_linked',
  'user.identity_unlinked',
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

/**
 * The audit action each event type is read from, for every action: an action mapped to null sends
 * nothing, deliberately (an admin's or the service's own doings, a request that changed no user,
 * and the high-rate sign-in events, which would flood every endpoint with what changes no user).
 * A `Record`, so a new action does not compile until it is placed here.
 */
export const EVENT_OF_ACTION: Readonly<Record<AuditAction, WebhookEventType | null>> = {
  'admin.login': null,
  'admin.login_failed': null,
  'session.reuse_detected': null,
  'session.logout': null,
  'session.revoked': null,
  'user.created': 'user.created',
  'user.signed_up': 'user.created',
  'user.email_verified': 'user.email_verified',
  // Only a request: the address changes when its link is followed (`user.email_changed`).
  'user.email_change_requested': null,
  'user.email_changed': 'user.updated',
  'user.updated': 'user.updated',
  'user.deactivated': 'user.deactivated',
  'user.deleted': 'user.deleted',
  'user.login_throttled': null,
  'user.recovery_requested': null,
  'user.recovery_sent': null,
  'user.recovery_completed': 'user.updated',
  'user.verification_resent': null,
  'factor.activated': 'factor.activated',
  'factor.removed': 'factor.removed',
  'factors.reset': 'factors.reset',
  'recovery_codes.regenerated': null,
  'recovery_code.used': null,
  'passkey.counter_regressed': null,
  'mfa.locked': null,
  'admin.invited': null,
  'admin.invitation_withdrawn': null,
  'admin.joined': null,
  'admin.role_changed': null,
  'admin.removed': null,
  'user.banned': 'user.banned',
  'user.unbanned': 'user.unbanned',
  'user.impersonated': null,
  'signing_key.rotated': null,
  'secret.rotated': null,
  // One event per user the batch created (see importedUsersOf), expanded by the dispatcher.
  'users.imported': 'user.created',
  'users.exported': null,
  // An invitation makes its user at once (no password yet), sets the password when accepted, and
  // takes the user away when revoked; a resent one changes no user.
  'invitation.created': 'user.created',
  'invitation.accepted': 'user.updated',
  'invitation.revoked': 'user.deleted',
  'invitation.resent': null,
  'mail.delivered': null,
  'mail.failed': null,
  'webhook.created': null,
  'webhook.updated': null,
  'webhook.deleted': null,
  'webhook.secret_rotated': null,
  'webhook.replayed': null,
  'identity_provider.created': null,
  'identity_provider.updated': null,
  'identity_provider.deleted': null,
  'user.identity_linked': 'user.identity_linked',
  'user.identity_unlinked': 'user.identity_unlinked',
  // A sign-in changes no user: high-rate, as the password logins.
  'user.identity_signed_in': null,
  'oauth_client.created': null,
  'oauth_client.updated': null,
  'oauth_client.deleted': null,
  'oauth_client.secret_rotated': null,
  // What applications a user let in changes no user.
  'oauth_grant.created': null,
  'oauth_grant.revoked': null,
  'oauth_token.refused': null,
};

/**
 * The user an event concerns: its target, or the user it names beside another target (an
 * invitation's, a factor's); null for none, as for an administrator's factor.
 */
export function userOfEvent(record: Pick<AuditRecord, 'target' | 'changes'>): string | null {
  if (record.target?.type === 'users') return record.target.id;
  const named = record.changes?.user;
  const id = named?.after ?? named?.before;
  return typeof id === 'string' ? id : null;
}

/**
 * The event type an audit event is delivered as; null for one that is none of the catalogue's,
 * or a factor's event of an administrator's factor. An update that makes an inactive user active
 * is a reactivation, whatever else it changes (as an update that deactivates is recorded as a
 * deactivation).
 */
export function webhookEventTypeOf(
  record: Pick<AuditRecord, 'action' | 'changes' | 'target'>,
): WebhookEventType | null {
  const type = EVENT_OF_ACTION[record.action];
  // An import names its users in its changes, one event each (see importedUsersOf).
  if (type === null || (record.action !== 'users.imported' && userOfEvent(record) === null)) return null;
  // A revoked invitation takes its user away only while no password was set.
  if (record.action === 'invitation.revoked' && record.changes?.user?.after !== null) return null;
  const active = record.changes?.active;
  if (type === 'user.updated' && active?.before === 0 && active.after === 1) return 'user.reactivated';
  return type;
}

/** Whether an endpoint subscribed with `events` receives events of `type`. */
export const webhookReceives = (events: readonly WebhookEventSelector[], type: WebhookEventType): boolean =>
  events.includes(ALL_WEBHOOK_EVENTS) || events.includes(type);
