import type { SealedText } from '../secrets/secret.ts';
import type { WebhookEventSelector } from './webhook-events.ts';

/** Why the service disabled an endpoint: its receiver answered 410 Gone, or it failed for 5 days. */
export const WEBHOOK_DISABLED_REASONS = ['gone', 'failing'] as const;
export type WebhookDisabledReason = (typeof WEBHOOK_DISABLED_REASONS)[number];

/** How long a rotated-out signing secret keeps signing beside the new one: 24 hours. */
export const WEBHOOK_PREVIOUS_SECRET_SECONDS = 24 * 60 * 60;

/**
 * An endpoint that receives the events it subscribed to, signed (Standard Webhooks) with its
 * secret. The secret is stored only sealed under the key ring's `webhook-secret` purpose, with
 * the endpoint's id as context; after a rotation the previous one signs too until
 * `previousSecretUntil`.
 */
export interface Webhook {
  readonly id: string;
  /** Absolute https URL (http only where the operator allows it), without credentials. */
  readonly url: string;
  /** Event types, or `["*"]` for all. */
  readonly events: readonly WebhookEventSelector[];
  readonly enabled: boolean;
  /** The admins' note; '' for none. */
  readonly description: string;
  readonly secret: SealedText;
  readonly previousSecret: SealedText | null;
  readonly previousSecretUntil: Date | null;
  /**
   * The last audit event (by its place in the chain) turned into deliveries for this endpoint.
   * A new endpoint starts at the chain's head when it is created: it receives no backlog.
   */
  readonly cursor: number;
  /** Since when every delivery failed; null while the last one succeeded. */
  readonly failingSince: Date | null;
  /** Why the service disabled it; null when enabled, or disabled by an admin. */
  readonly disabledReason: WebhookDisabledReason | null;
  readonly created: Date;
  readonly updated: Date;
}

/** An endpoint as a use case creates it: the store sets its cursor. */
export type NewWebhook = Omit<Webhook, 'cursor'>;

/** What an admin supplies to create an endpoint (its secret is generated). */
export interface WebhookDraft {
  url: string;
  events: readonly string[];
  enabled?: boolean;
  description?: string;
}

/** What an admin may change of an endpoint; an absent key is left as it is. */
export interface WebhookPatch {
  url?: string;
  events?: readonly string[];
  enabled?: boolean;
  description?: string;
}
