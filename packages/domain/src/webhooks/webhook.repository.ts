import type { AuditRecord } from '../audit/audit-event.ts';
import type { SealedText } from '../secrets/secret.ts';
import { token } from '../shared/token.ts';
import type { NewWebhook, Webhook } from './webhook.ts';

/** What a change of an endpoint makes of it: its new state, and the event that records it (none when nothing changed). */
export interface WebhookChange {
  webhook: Webhook;
  audit: AuditRecord | null;
}

/** The rotation of an endpoint's signing secret: the new one, and until when the current one still signs. */
export interface WebhookSecretRotation {
  secret: SealedText;
  previousUntil: Date;
  now: Date;
}

/** What WebhookRepository.update() writes of a changed endpoint: never its secrets or its cursor, which have writes of their own. */
export const changedWebhookFields = ({
  url,
  events,
  enabled,
  description,
  failingSince,
  disabledReason,
  updated,
}: Webhook) => ({ url, events, enabled, description, failingSince, disabledReason, updated });

/** Stores webhook endpoints (the `webhooks` table). Each change is one transaction with its audit event. */
export interface WebhookRepository {
  /**
   * Stores the endpoint with its event; its cursor is the audit chain's head at that moment, so it
   * receives every event committed after its creation, and none chained before it. (An event
   * committed just before, not yet chained, comes after the head too: sent rather than missed.)
   * Answers it as stored.
   */
  create(webhook: NewWebhook, audit: AuditRecord): Promise<Webhook>;
  get(id: string): Promise<Webhook | null>;
  /** Every endpoint, oldest first (by created, then id). */
  list(): Promise<Webhook[]>;
  /**
   * Replaces the endpoint by what `change` makes of its current state, with the event, in one
   * transaction under the row's lock (concurrent changes each see the one before); null when there
   * is no such endpoint. It writes only the changedWebhookFields().
   */
  update(id: string, change: (current: Webhook) => WebhookChange): Promise<Webhook | null>;
  /** Removes the endpoint (its deliveries go with it) and appends what `audit` makes of it, in one transaction; null when there is none. */
  delete(id: string, audit: (removed: Webhook) => AuditRecord): Promise<Webhook | null>;
  /**
   * Makes `rotation.secret` the endpoint's secret, and the one it replaces its previous secret
   * until `rotation.previousUntil`, by one statement in one transaction with the event: of
   * concurrent rotations each replaces the one before it. Null when there is no such endpoint.
   */
  rotateSecret(id: string, rotation: WebhookSecretRotation, audit: AuditRecord): Promise<Webhook | null>;
}
export const WebhookRepository = token<WebhookRepository>('WebhookRepository');
